// One replica of a sharded ConfigMap controller for sharding-processes.int.test.ts, run as a
// child process so that the test can SIGKILL it. It uses the built package (dist), as an app
// would. Configuration comes from the environment; it prints JSON lines on stdout.
import { loadKubeConfig } from '@ctrlkit/runtime/client';
import { Manager, setupSignalHandler } from '@ctrlkit/runtime/manager';
import { Shard, Sharder } from '@ctrlkit/runtime/sharding';

const {
  REPLICA_NAMESPACE: namespace,
  REPLICA_NAME: name,
  REPLICA_KUBECONFIG: kubeconfig,
} = process.env;
const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

const manager = new Manager({
  kubeConfig: loadKubeConfig({ kubeconfig }),
  program: { name: `shard-${name}`, version: '0.0.0' },
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  cache: { namespace },
  qps: 500,
  burst: 1000,
});
const ring = {
  ring: 'processes',
  resources: ['v1/configmaps'],
  leaseNamespace: namespace,
  leaseDurationMs: 3_000,
  renewDeadlineMs: 2_000,
  retryPeriodMs: 400,
};
const shard = new Shard({ ...ring, manager, name });
shard.controller({
  name: 'configmaps',
  resource: 'v1/configmaps',
  maxConcurrentReconciles: 4,
  reconcile: async (key) => {
    const start = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 2));
    print({ key, shard: name, start, end: Date.now() });
  },
});
manager.add(shard).add(new Sharder({ ...ring, manager, namespace, identity: name }));
manager.start(setupSignalHandler()).then(
  () => print({ stopped: true }),
  (error) => {
    print({ failed: String(error) });
    process.exitCode = 1;
  },
);
print({ started: name });
