// One replica of a sharded ConfigMap controller for sharding-processes.int.test.ts, run as a
// child process so that the test can SIGKILL it or cut it off the apiserver. It uses the built
// package (dist), as an app would. Configuration comes from the environment; it prints JSON
// lines on stdout:
//   {ev: 'start'|'end', key, shard, t}  each reconcile, at its start and at its end (t: Date.now())
//   {member: true|false, t}             when the shard joins or leaves the ring
//   {failed, t}                         when the manager stops on an error (e.g. ShardLeaseLost)
// A line `resync` on stdin enqueues every object of the shard's cache (work to be in progress
// when the test kills or partitions the replica). The process lives until a signal.
import { createInterface } from 'node:readline';
import { loadKubeConfig } from '@ctrlkit/runtime/client';
import { Manager, setupSignalHandler } from '@ctrlkit/runtime/manager';
import { Shard, Sharder } from '@ctrlkit/runtime/sharding';

const env = process.env;
const namespace = env.REPLICA_NAMESPACE;
const name = env.REPLICA_NAME;
/** `min-max` ms of waiting in each reconcile, whatever its abort signal says (the worst case). */
const [minMs, maxMs = minMs] = (env.REPLICA_RECONCILE_MS ?? '2').split('-').map(Number);
/** `lease/renewDeadline/retry` in ms. */
const [leaseDurationMs, renewDeadlineMs, retryPeriodMs] = (env.REPLICA_LEASE ?? '3000/2000/400')
  .split('/')
  .map(Number);
const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

const manager = new Manager({
  kubeConfig: loadKubeConfig({ kubeconfig: env.REPLICA_KUBECONFIG }),
  program: { name: `shard-${name}`, version: '0.0.0' },
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  cache: { namespace },
  qps: 500,
  burst: 1000,
});
const ring = {
  ring: env.REPLICA_RING ?? 'processes',
  resources: ['v1/configmaps'],
  leaseNamespace: namespace,
  leaseDurationMs,
  renewDeadlineMs,
  retryPeriodMs,
};
const shard = new Shard({ ...ring, manager, name });
const controller = shard.controller({
  name: 'configmaps',
  resource: 'v1/configmaps',
  maxConcurrentReconciles: Number(env.REPLICA_WORKERS ?? 4),
  reconcile: async (key) => {
    print({ ev: 'start', key, shard: name, t: Date.now() });
    const ms = minMs + Math.random() * (maxMs - minMs);
    await new Promise((resolve) => setTimeout(resolve, ms));
    print({ ev: 'end', key, shard: name, t: Date.now() });
  },
});
const sharder = new Sharder({
  ...ring,
  manager,
  namespace,
  identity: name,
  maxConcurrentAssignments: Number(env.REPLICA_ASSIGNERS ?? 16),
});
manager.add(shard).add(sharder);

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line !== 'resync') return;
  for (const key of shard.informer('v1/configmaps').indexer.listKeys()) controller.enqueue(key);
});
let member = false;
const watchMembership = setInterval(() => {
  if (shard.isMember() === member) return;
  member = shard.isMember();
  print({ member, t: Date.now() });
}, 20);
const signal = setupSignalHandler();
signal.addEventListener('abort', () => clearInterval(watchMembership), { once: true });
manager.start(signal).then(
  () => {
    print({ stopped: true });
    process.exit(0);
  },
  (error) => {
    print({ failed: String(error), t: Date.now() });
    process.exitCode = 1;
  },
);
print({ started: name });
