// One side of the scale bench (scale.mjs) for ctrlkit, in its own process as the Go peer
// runs in its own: the same flags and the same JSON line as tooling/go-bench/dra-resourceslice
// -scale (scale.go). `--nodes N`: N node-local drivers (one controller each, owner Node
// node-%04d, one pool named for the node); `--nodes 0`: one network-attached driver with
// `--pools` pools. Each pool has one slice of `--devices` devices. One client without a rate limit
// (Go's QPS -1) for all controllers, as Go's share one clientset. `--module <dist folder>` runs
// another build of this package (the scale bench's --baseline). Run with --expose-gc.
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { createClient } from '@ctrlkit/runtime/client';
import { KubeConfig } from '@kubernetes/client-node';

const flag = (name) => {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) throw new Error(`scale-child: --${name} is required`);
  return process.argv[at + 1];
};
const at = process.argv.indexOf('--module');
const { newKubeClient, startController } = await import(
  at === -1
    ? '@ctrlkit/dra-resourceslice'
    : pathToFileURL(resolve(process.argv[at + 1], 'index.js')).href
);
const driverName = flag('driver');
const nodes = Number(flag('nodes'));
const pools = Number(flag('pools'));
const devices = Number(flag('devices'));
const quietMs = Number(flag('quiet-ms'));
if (globalThis.gc === undefined) throw new Error('scale-child: run with node --expose-gc');

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(flag('kubeconfig'));
/**
 * One client, as Go's controllers share one clientset: its watches go over HTTP/2 connections,
 * another dialled when one carries the apiserver's limit of concurrent streams (100 here).
 */
const kubeClient = newKubeClient(createClient(kubeConfig, { qps: Number.POSITIVE_INFINITY }));
const slice = () => ({
  devices: Array.from({ length: devices }, (_, d) => ({
    name: `dev-${d}`,
    attributes: { index: { int: d }, firmware: { string: 'v1' } },
  })),
});
const errorHandler = (error, message) => console.error(`${message}: ${error.message}`);

const cpu0 = process.cpuUsage();
const start = performance.now();
const controllers = [];
if (nodes > 0) {
  const starting = [];
  for (let n = 0; n < nodes; n++) {
    const name = `node-${String(n).padStart(4, '0')}`;
    starting.push(
      startController({
        driverName,
        kubeClient,
        owner: { apiVersion: 'v1', kind: 'Node', name },
        resources: { pools: { [name]: { slices: [slice()] } } },
        errorHandler,
      }),
    );
  }
  controllers.push(...(await Promise.all(starting)));
} else {
  const all = {};
  for (let p = 0; p < pools; p++) all[`pool-${String(p).padStart(4, '0')}`] = { slices: [slice()] };
  controllers.push(
    await startController({
      driverName,
      kubeClient,
      resources: { pools: all },
      errorHandler,
    }),
  );
}
const total = () => {
  const s = { numCreates: 0, numUpdates: 0, numDeletes: 0 };
  for (const c of controllers) {
    const cs = c.getStats();
    s.numCreates += cs.numCreates;
    s.numUpdates += cs.numUpdates;
    s.numDeletes += cs.numDeletes;
  }
  return s;
};
// Every informer has synced (startController resolves then): the initial lists are done.
const syncedMs = performance.now() - start;
const want = nodes > 0 ? nodes : pools;
while (total().numCreates < want) await sleep(1);
const ms = performance.now() - start;
await sleep(quietMs);
const s = total();
const cpu = process.cpuUsage(cpu0);
gc();
gc();
const mem = process.memoryUsage();
console.log(
  JSON.stringify({
    ms,
    syncedMs,
    creates: s.numCreates,
    updates: s.numUpdates,
    deletes: s.numDeletes,
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapBytes: mem.heapUsed,
    rssBytes: process.resourceUsage().maxRSS * 1024,
    load: loadavg()[0],
  }),
);
await Promise.all(controllers.map((c) => c.stop()));
process.exit(0);
