// One client in a fresh process, so that heaps and JIT state never mix: bench/run.mjs spawns
//   node --expose-gc child.mjs <client-node|ctrlkit> <kubeconfig> <namespace> <idle namespace> <objects> <requests>
// and reads one JSON line from stdout with every figure of the run:
//   importHeapBytes, importMs:   live heap (after gc) and wall time added by importing the root
//   getCpuUs, putCpuUs:          CPU (user + system) per GET / PUT of one ConfigMap, sequential,
//                                after a warm-up of WARM_UP requests
//   listCpuMs, listMs:           CPU and wall time of one LIST of <objects> ConfigMaps, decoded
//                                (median of LISTS lists; the first is also the warm-up's)
//   watchEventCpuUs:             CPU per event of a plain watch from resourceVersion 0, whose
//                                first <objects> events are the ConfigMaps (ADDED)
//   streamedObjectCpuUs:         CPU per object of the streaming list (a watch with
//                                sendInitialEvents), up to its closing BOOKMARK
//   idleWatchesHeapBytes:        live heap held by IDLE_WATCHES open watches on a namespace
//                                holding one ConfigMap, each past its one ADDED event
import { performance } from 'node:perf_hooks';
import { isInitialEventsEnd, PLAIN_QUERY, SIDES, STREAMING_QUERY } from './sides.mjs';

const [which, kubeconfigPath, namespace, idleNamespace, objectsText, requestsText] =
  process.argv.slice(2);
const objects = Number(objectsText);
const requests = Number(requestsText);
const WARM_UP = 50;
const LISTS = 3;
const WATCHES = 5;
const IDLE_WATCHES = 10;
const gc = globalThis.gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const side = SIDES[which];
if (side === undefined) throw new Error(`unknown client ${JSON.stringify(which)}`);

function liveHeap() {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** CPU time (user + system) since `start` (a `process.cpuUsage()`), in µs. */
function cpuSince(start) {
  const { user, system } = process.cpuUsage(start);
  return user + system;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** CPU per call of `count` sequential calls of `call(i)`, after `WARM_UP` calls, in µs. */
async function cpuPerCall(count, call) {
  for (let i = 0; i < WARM_UP; i++) await call(i);
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await call(i);
  return cpuSince(start) / count;
}

/**
 * CPU per event, in µs, of one watch of the namespace's `objects` ConfigMaps: with `streaming`,
 * the streaming list (sendInitialEvents, gzipped by the apiserver) up to its closing BOOKMARK;
 * else a plain watch from resourceVersion 0, whose first events are the objects (ADDED) from
 * the apiserver's watch cache, uncompressed as every plain watch is.
 */
async function watchOnce(client, streaming) {
  let events = 0;
  const done = Promise.withResolvers();
  const start = process.cpuUsage();
  const onEvent = (type, object) => {
    if (streaming && isInitialEventsEnd(type, object)) done.resolve();
    else if (type === 'ADDED' && ++events === objects && !streaming) done.resolve();
  };
  const watch = client.watch(namespace, onEvent, streaming ? STREAMING_QUERY : PLAIN_QUERY);
  watch.ended.then(() => done.reject(new Error('the watch ended before its events')), done.reject);
  await done.promise;
  const cpu = cpuSince(start);
  await watch.stop();
  if (events !== objects) throw new Error(`${which}: ${events} ADDED events, not ${objects}`);
  return cpu / events;
}

/** Opens `count` plain watches on the idle namespace; resolves once each saw its one object. */
async function openIdleWatches(client, count) {
  const watches = [];
  const opened = [];
  for (let i = 0; i < count; i++) {
    const seen = Promise.withResolvers();
    const watch = client.watch(
      idleNamespace,
      (type) => type === 'ADDED' && seen.resolve(),
      PLAIN_QUERY,
    );
    watch.ended.then(() => seen.reject(new Error('an idle watch ended')), seen.reject);
    watches.push(watch);
    opened.push(seen.promise);
  }
  await Promise.all(opened);
  return watches;
}

/** The live heap held by `IDLE_WATCHES` open watches (after one opened and closed to warm up). */
async function idleWatchesHeap(client) {
  for (const watch of await openIdleWatches(client, 1)) await watch.stop();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const before = liveHeap();
  const watches = await openIdleWatches(client, IDLE_WATCHES);
  const held = liveHeap() - before;
  for (const watch of watches) await watch.stop();
  return held;
}

async function main() {
  const heapBefore = liveHeap();
  const importStart = performance.now();
  const module = await side.load();
  const importMs = performance.now() - importStart;
  const importHeapBytes = liveHeap() - heapBefore;
  const client = side.connect(module, kubeconfigPath);
  // First, while nothing else the process did is waiting to be collected.
  const idleWatchesHeapBytes = await idleWatchesHeap(client);
  const getCpuUs = await cpuPerCall(requests, () => client.get(namespace, 'bench-rw'));
  let current = await client.get(namespace, 'bench-rw');
  const putCpuUs = await cpuPerCall(requests, async (i) => {
    current.data = { ...current.data, round: String(i) };
    current = await client.put(namespace, current);
  });
  const lists = [];
  for (let i = 0; i < LISTS; i++) {
    const start = process.cpuUsage();
    const wall = performance.now();
    const count = await client.list(namespace);
    lists.push({ cpuMs: cpuSince(start) / 1000, ms: performance.now() - wall });
    if (count !== objects) throw new Error(`${which}: listed ${count}, not ${objects}`);
  }
  const perEvent = [];
  const perStreamed = [];
  for (let i = 0; i < WATCHES; i++) perEvent.push(await watchOnce(client, false));
  for (let i = 0; i < WATCHES; i++) perStreamed.push(await watchOnce(client, true));
  client.close();
  process.stdout.write(
    `${JSON.stringify({
      which,
      importHeapBytes,
      importMs,
      getCpuUs,
      putCpuUs,
      listCpuMs: median(lists.map((l) => l.cpuMs)),
      listMs: median(lists.map((l) => l.ms)),
      watchEventCpuUs: median(perEvent),
      streamedObjectCpuUs: median(perStreamed),
      idleWatchesHeapBytes,
    })}\n`,
  );
}

await main();
process.exit(0);
