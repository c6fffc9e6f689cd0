// One replica of the sharding benchmark (bench/sharding.mjs): a Manager with a Shard of a
// sharded ConfigMap controller and a Sharder candidate, on the built package. Lines in on
// stdin: `resync` (enqueue every cached key, answer when all are reconciled), `heap` (gc,
// then heapUsed). JSON lines out on stdout.
import { createInterface } from 'node:readline';
import { loadKubeConfig } from '@ctrlkit/runtime/client';
import { Manager, setupSignalHandler } from '@ctrlkit/runtime/manager';
import { Shard, Sharder } from '@ctrlkit/runtime/sharding';

const { BENCH_NAMESPACE: namespace, BENCH_RING: ringName, BENCH_NAME: name } = process.env;
const reconcileMs = Number(process.env.RECONCILE_MS ?? 5);
const workers = Number(process.env.WORKERS ?? 4);
const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

const manager = new Manager({
  kubeConfig: loadKubeConfig({ kubeconfig: process.env.BENCH_KUBECONFIG }),
  program: { name: `bench-${name}`, version: '0.0.0' },
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  cache: { namespace },
  qps: 1000,
  burst: 2000,
});
const ring = {
  ring: ringName,
  resources: ['v1/configmaps'],
  leaseNamespace: namespace,
  leaseDurationMs: 3_000,
  renewDeadlineMs: 2_000,
  retryPeriodMs: 400,
};
const shard = new Shard({ ...ring, manager, name, drainTimeoutMs: 30_000 });
const informer = shard.informer('v1/configmaps');
let reconciled = 0;
let waiting;
const controller = shard.controller({
  name: 'configmaps',
  resource: 'v1/configmaps',
  maxConcurrentReconciles: workers,
  reconcile: async (key) => {
    // A reconcile: read the object, do some work, wait on a (simulated) provider call.
    const object = informer.indexer.getByKey(key);
    JSON.stringify(object);
    await new Promise((resolve) => setTimeout(resolve, reconcileMs));
    reconciled++;
    if (waiting !== undefined && reconciled >= waiting.count) {
      print({ resynced: reconciled, ms: performance.now() - waiting.start });
      waiting = undefined;
    }
    print({ key });
  },
});
manager.add(shard).add(new Sharder({ ...ring, manager, namespace, identity: name }));
const commands = createInterface({ input: process.stdin });
manager
  .start(setupSignalHandler())
  .then(
    () => print({ stopped: name }),
    (error) => {
      print({ failed: String(error) });
      process.exitCode = 1;
    },
  )
  .finally(() => {
    commands.close();
    process.stdin.destroy();
  });
commands.on('line', (line) => {
  if (line === 'resync') {
    const keys = informer.indexer.listKeys();
    reconciled = 0;
    waiting = { count: keys.length, start: performance.now() };
    if (keys.length === 0) print({ resynced: 0, ms: 0 });
    for (const key of keys) controller.enqueue(key);
  } else if (line === 'heap') {
    globalThis.gc?.();
    globalThis.gc?.();
    print({ heap: process.memoryUsage().heapUsed, cached: informer.indexer.listKeys().length });
  }
});
