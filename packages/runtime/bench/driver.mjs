// One informer in a fresh process, so that heaps don't mix: run.mjs spawns
//   node --expose-gc driver.mjs <bare|client-node|ctrlkit[ variant]> <sync|events> <kubeconfig> <namespace> <expect> [configmaps|pods]
// (the ctrlkit variants are CTRLKIT_VARIANTS of ctrlkit-informer.mjs, and BASELINE: the
// defaults on the build in BASELINE_DIST)
// and reads JSON lines from stdout, as from tooling/go-bench/informer:
//   sync:   {"kind":"sync","syncedMs":..,"objects":..,"heapPerObject":..,"rssPerObject":..,
//           "rssMB":..,"freedPerObject":..}
//   events: {"kind":"ready"}, then on stdin "start" (reset the counters) and
//           "stop <writes>" (wait until <writes> update events were handled, or 3 s
//           without one): {"kind":"events","events":..,"seconds":..,"cpuMs":..,
//           "threadsCpuMs":{"main":..,"v8":..,"other":..}}; then "heap"
//           ({"kind":"heap","heap":..,"version":..}) and "relist <rv>" (ctrlkit: wait until the informer
//           synced past <rv>, a second more, {"kind":"relist","heap":..,"waitedMs":..}), as
//           tooling/go-bench/informer; the process exits at the end of stdin.
//   {"kind":"skip","reason":..} when the informer is not available.
import { constants } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadKubeConfig } from '@ctrlkit/client';
import { cpuMsOfStat } from './apiserver-cpu.mjs';
import {
  BASELINE_VARIANTS,
  baselineModule,
  CTRLKIT_VARIANTS,
  NotWiredError,
  startCtrlkitInformer,
} from './ctrlkit-informer.mjs';
import { call, connect } from './kube.mjs';
import { RESOURCES } from './objects.mjs';

const [which, mode, kubeconfigPath, namespace, expectText, resource = 'configmaps'] =
  process.argv.slice(2);
if (!RESOURCES.includes(resource)) throw new Error(`unknown resource ${resource}`);
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

/**
 * The kubeconfig as the informer's own library reads it. ctrlkit's is @ctrlkit/client's
 * loader: @kubernetes/client-node's index (its API classes and models, ~20 MB of heap) is
 * loaded only in the processes that use it (bare, client-node), as a ctrlkit program does
 * not load it; in the ctrlkit processes it would be heap every major GC marks again.
 */
async function kubeConfigOf(clientNode) {
  if (!clientNode) return loadKubeConfig({ kubeconfig: kubeconfigPath });
  const { KubeConfig } = await import('@kubernetes/client-node');
  const config = new KubeConfig();
  config.loadFromFile(kubeconfigPath);
  return config;
}
const kubeConfig = await kubeConfigOf(which === 'bare' || which === 'client-node');

// Update events, counted between "start" and "stop".
const counter = { on: false, events: 0, first: 0, last: 0 };
const onUpdate = () => {
  if (!counter.on) return;
  const now = performance.now();
  if (counter.events++ === 0) counter.first = now;
  counter.last = now;
};

/** A figure this machine's runtime cannot take (reported as a skip, as a side not wired is). */
class CannotMeasureError extends Error {}

/** The bare LIST floor: one GET of the whole namespace, the body read and JSON-parsed. */
async function bare() {
  const conn = await connect(kubeConfig);
  const before = memory();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const { status, body, headersAt } = await call(
    conn,
    'GET',
    `/api/v1/namespaces/${namespace}/${resource}`,
  );
  const receivedAt = performance.now();
  if (status !== 200) throw new Error(`LIST: HTTP ${status}`);
  if (body.length > constants.MAX_STRING_LENGTH) {
    throw new CannotMeasureError(
      `a bare LIST of ${(body.length / 2 ** 20).toFixed(0)} MiB of JSON is over V8's longest string`,
    );
  }
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
  const { CoreV1Api, makeInformer } = await import('@kubernetes/client-node');
  const api = kubeConfig.makeApiClient(CoreV1Api);
  const before = memory();
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let adds = 0;
  let syncedAt = 0;
  let cpuMs;
  const informer = makeInformer(kubeConfig, `/api/v1/namespaces/${namespace}/${resource}`, () =>
    resource === 'pods'
      ? api.listNamespacedPod({ namespace })
      : api.listNamespacedConfigMap({ namespace }),
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
    resource,
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
    lastSyncResourceVersion: informer.lastSyncResourceVersion,
    stop: () => informer.stop(),
  };
}

/**
 * CPU time (ms) per kind of thread of this process, from /proc/self/task (Linux; empty
 * elsewhere): `main` (JavaScript, and the HTTP/2 and TLS work it does), `v8` (V8's
 * workers: concurrent GC and compilation), `other` (libuv's pool, the inspector, ...).
 */
function threadCpu() {
  const ms = { main: 0, v8: 0, other: 0 };
  let tasks;
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return ms;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const kind = tid === String(process.pid) ? 'main' : comm.startsWith('V8') ? 'v8' : 'other';
      ms[kind] += cpuMsOfStat(stat);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ms;
}

/** Events mode: the update stream's counters, then the heap and relist commands. */
async function events(informer) {
  emit({ kind: 'ready' });
  let cpuStart;
  let threadsStart;
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, arg] = line.trim().split(/\s+/);
    if (command === 'start') {
      Object.assign(counter, { on: true, events: 0, first: 0, last: 0 });
      cpuStart = process.cpuUsage();
      threadsStart = threadCpu();
    } else if (command === 'stop') {
      await counted(Number(arg ?? 0));
      counter.on = false;
      const cpu = process.cpuUsage(cpuStart);
      const threads = threadCpu();
      for (const kind of Object.keys(threads)) threads[kind] -= threadsStart[kind];
      emit({
        kind: 'events',
        events: counter.events,
        seconds: (counter.last - counter.first) / 1000,
        cpuMs: (cpu.user + cpu.system) / 1000,
        threadsCpuMs: threads,
      });
    } else if (command === 'heap') {
      emit({ kind: 'heap', heap: liveHeap(), version: informer.lastSyncResourceVersion?.() });
    } else if (command === 'relist') {
      emit(await relisted(informer, BigInt(arg)));
    }
  }
  await informer.stop?.();
}

/** Waits until `writes` update events were counted, or 3 s without one. */
async function counted(writes) {
  let seen = counter.events;
  let idleSince = performance.now();
  while (counter.events < writes && performance.now() - idleSince < 3000) {
    await sleep(10);
    if (counter.events !== seen) {
      seen = counter.events;
      idleSince = performance.now();
    }
  }
}

/**
 * Waits (at most 5 minutes) until the informer synced past `revision` (it relisted), lets the
 * replaced objects become garbage for a second, and reads the live heap.
 */
async function relisted(informer, revision) {
  if (informer.lastSyncResourceVersion === undefined) {
    throw new Error(`${which}: no relist figure (its informer does not tell its version)`);
  }
  const start = performance.now();
  const past = () => {
    const version = informer.lastSyncResourceVersion();
    return /^\d+$/.test(version) && BigInt(version) >= revision;
  };
  while (!past()) {
    if (performance.now() - start > 300_000) {
      throw new Error(`${which}: no relist past ${revision} in 5 minutes`);
    }
    await sleep(10);
  }
  const waitedMs = performance.now() - start;
  await sleep(1000);
  return { kind: 'relist', heap: liveHeap(), waitedMs };
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
  if (!(error instanceof NotWiredError || error instanceof CannotMeasureError)) throw error;
  emit({ kind: 'skip', reason: error.message });
}
// Watches keep sockets open; the figures are out.
process.exit(0);
