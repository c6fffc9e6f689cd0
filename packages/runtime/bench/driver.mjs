// One informer in a fresh process, so that heaps don't mix: run.mjs spawns
//   node --expose-gc driver.mjs <bare|client-node|ctrlkit[ variant]> <sync|events> <kubeconfig> <namespace> <expect>
// (the ctrlkit variants are CTRLKIT_VARIANTS of ctrlkit-informer.mjs, and BASELINE: the
// defaults on the build in BASELINE_DIST)
// and reads JSON lines from stdout, as from tooling/go-bench/informer:
//   sync:   {"kind":"sync","syncedMs":..,"objects":..,"heapPerObject":..,"rssPerObject":..,
//           "rssMB":..,"freedPerObject":..}
//   events: {"kind":"ready"}, then on stdin "start" (reset the counters) and
//           "stop <writes>" (wait until <writes> update events were handled, or 3 s
//           without one): {"kind":"events","events":..,"seconds":..,"cpuMs":..}
//   {"kind":"skip","reason":..} when the informer is not available.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';
import {
  BASELINE_VARIANTS,
  baselineModule,
  CTRLKIT_VARIANTS,
  NotWiredError,
  startCtrlkitInformer,
} from './ctrlkit-informer.mjs';
import { call, connect } from './kube.mjs';

const [which, mode, kubeconfigPath, namespace, expectText] = process.argv.slice(2);
const expect = Number(expectText);
const gc = globalThis.gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const emit = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

function liveHeap() {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Heap and RSS per object since `before` (taken with `memory()`). */
function perObject(before, objects) {
  const heap = liveHeap();
  const { rss } = process.memoryUsage();
  return {
    heapPerObject: (heap - before.heap) / objects,
    rssPerObject: (rss - before.rss) / objects,
    rssMB: rss / 1e6,
  };
}

/** CPU time (user + system, all threads) since `start` (a `process.cpuUsage()`), in ms. */
function cpuSince(start) {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/**
 * The heap (after gc) and RSS now. Only in sync mode: in events mode a forced gc() would set V8's
 * heap growth low for the stream that follows (it reads back-to-back collections as a mutator
 * starved by GC), and the update stream would then pay for major collections no informer run
 * without gc() pays.
 */
function memory() {
  if (mode !== 'sync') return { heap: 0, rss: 0 };
  const heap = liveHeap();
  return { heap, rss: process.memoryUsage().rss };
}

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(kubeconfigPath);

// Update events, counted between "start" and "stop".
const counter = { on: false, events: 0, first: 0, last: 0 };
const onUpdate = () => {
  if (!counter.on) return;
  const now = performance.now();
  if (counter.events++ === 0) counter.first = now;
  counter.last = now;
};

/** The bare LIST floor: one GET of the whole namespace, the body read and JSON-parsed. */
async function bare() {
  const conn = await connect(kubeConfig);
  const before = memory();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const { status, body, headersAt } = await call(
    conn,
    'GET',
    `/api/v1/namespaces/${namespace}/configmaps`,
  );
  const receivedAt = performance.now();
  if (status !== 200) throw new Error(`LIST: HTTP ${status}`);
  const list = JSON.parse(body.toString('utf8'));
  const syncedMs = performance.now() - start;
  const cpuMs = cpuSince(cpuStart);
  const objects = list.items.length;
  const memoryFigures = perObject(before, objects);
  // The same objects without managedFields, metadata rebuilt (not `delete`d, which leaves
  // V8 dictionary-mode objects): the heap floor of a cache with the default transform.
  for (const item of list.items) {
    const { managedFields: _managedFields, ...metadata } = item.metadata;
    item.metadata = metadata;
  }
  const strippedPerObject = (liveHeap() - before.heap) / objects;
  conn.agent.destroy();
  return {
    syncedMs,
    cpuMs,
    strippedPerObject,
    headersMs: headersAt - start,
    receivedMs: receivedAt - start,
    objects,
    ...memoryFigures,
    bytes: body.length,
    keep: list,
  };
}

/** @kubernetes/client-node's makeInformer on listNamespacedConfigMap. */
async function clientNode() {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  const before = memory();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let adds = 0;
  let syncedAt = 0;
  let cpuMs;
  const informer = makeInformer(kubeConfig, `/api/v1/namespaces/${namespace}/configmaps`, () =>
    api.listNamespacedConfigMap({ namespace }),
  );
  // The list's objects are added to the cache one by one, each with an `add` callback:
  // the cache is complete at the last one. start() resolves a little later, once the
  // watch is open.
  informer.on('add', () => {
    if (++adds === expect) {
      syncedAt = performance.now();
      cpuMs = cpuSince(cpuStart);
    }
  });
  informer.on('update', onUpdate);
  let stopped = false;
  informer.on('error', (error) => {
    if (stopped) return;
    console.error(`client-node informer error: ${error?.message ?? error}`);
    process.exit(1);
  });
  await informer.start();
  const startedMs = performance.now() - start;
  const objects = informer.list(namespace).length;
  const syncedMs = (syncedAt || performance.now()) - start;
  cpuMs ??= cpuSince(cpuStart);
  const memoryFigures = mode === 'sync' ? perObject(before, objects) : {};
  return {
    syncedMs,
    cpuMs,
    startResolvedMs: startedMs,
    objects,
    ...memoryFigures,
    keep: informer,
    stop: () => {
      stopped = true;
      return informer.stop();
    },
  };
}

/** ctrlkit's informer, through bench/ctrlkit-informer.mjs. */
async function ctrlkit() {
  let runtime;
  try {
    runtime = await import(
      which in BASELINE_VARIANTS ? baselineModule() : '@ctrlkit/runtime/informers'
    );
  } catch (error) {
    throw new NotWiredError(
      `@ctrlkit/runtime/informers not loadable (pnpm --filter @ctrlkit/runtime build): ${error.message}`,
    );
  }
  const before = memory();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const informer = await startCtrlkitInformer(runtime, {
    kubeConfig,
    namespace,
    onAdd: () => {},
    onUpdate,
    variant: BASELINE_VARIANTS[which] ?? which,
  });
  await informer.synced;
  const syncedMs = performance.now() - start;
  const cpuMs = cpuSince(cpuStart);
  const objects = informer.size();
  const memoryFigures = mode === 'sync' ? perObject(before, objects) : {};
  return {
    syncedMs,
    cpuMs,
    objects,
    ...memoryFigures,
    keep: informer,
    stop: () => informer.stop(),
  };
}

async function events(informer) {
  emit({ kind: 'ready' });
  let cpuStart;
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, arg] = line.trim().split(/\s+/);
    if (command === 'start') {
      Object.assign(counter, { on: true, events: 0, first: 0, last: 0 });
      cpuStart = process.cpuUsage();
    } else if (command === 'stop') {
      const writes = Number(arg ?? 0);
      let seen = counter.events;
      let idleSince = performance.now();
      while (counter.events < writes && performance.now() - idleSince < 3000) {
        await sleep(10);
        if (counter.events !== seen) {
          seen = counter.events;
          idleSince = performance.now();
        }
      }
      counter.on = false;
      const cpu = process.cpuUsage(cpuStart);
      emit({
        kind: 'events',
        events: counter.events,
        seconds: (counter.last - counter.first) / 1000,
        cpuMs: (cpu.user + cpu.system) / 1000,
      });
      break;
    }
  }
  await informer.stop?.();
}

const run =
  which in CTRLKIT_VARIANTS || which in BASELINE_VARIANTS
    ? ctrlkit
    : { bare, 'client-node': clientNode }[which];
if (run === undefined || !['sync', 'events'].includes(mode)) {
  throw new Error(`usage: driver.mjs <bare|client-node|ctrlkit[ variant]> <sync|events> ...`);
}
/**
 * The heap freed when the synced informer is stopped and dropped, per object: the cache
 * and whatever else the informer holds, without the code compiled on the way (which the
 * delta from before the start counts too).
 */
async function freedPerObject(holder, objects) {
  const synced = liveHeap();
  let stop = holder.result.stop;
  holder.result = undefined;
  await stop?.();
  stop = undefined;
  await sleep(200);
  return (synced - liveHeap()) / objects;
}

try {
  const holder = { result: await run() };
  const { objects } = holder.result;
  if (objects !== expect) {
    throw new Error(`${which} synced with ${objects} objects, expected ${expect}`);
  }
  if (mode === 'sync') {
    const figures = { ...holder.result };
    delete figures.keep;
    delete figures.stop;
    emit({ kind: 'sync', ...figures, freedPerObject: await freedPerObject(holder, objects) });
  } else {
    await events(holder.result);
  }
} catch (error) {
  if (!(error instanceof NotWiredError)) throw error;
  emit({ kind: 'skip', reason: error.message });
}
// Watches keep sockets open; the figures are out.
process.exit(0);
