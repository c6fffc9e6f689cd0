// One replica of a manager for manager-replicas.int.test.ts, run as a child process so
// that the test can SIGKILL it. It uses the built package (dist), as an app would.
// Configuration comes from the environment; it prints JSON lines on stdout.
import { Controller, loadKubeConfig, Manager, setupSignalHandler } from '@ctrlkit/runtime';

const {
  REPLICA_NAMESPACE: namespace,
  REPLICA_IDENTITY: identity,
  REPLICA_KUBECONFIG: kubeconfig,
} = process.env;
const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

const manager = new Manager({
  kubeConfig: loadKubeConfig({ kubeconfig }),
  userAgent: `replica-${identity}`,
  metricsBindAddress: '127.0.0.1:0',
  healthProbeBindAddress: '0',
  leaderElection: {
    leaseName: 'replicas',
    leaseNamespace: namespace,
    identity,
    leaseDurationMs: 3_000,
    renewDeadlineMs: 2_000,
    retryPeriodMs: 400,
  },
  cache: { namespace },
});
const { client } = manager;
const configMaps = manager.informerFactory.forResource('v1/configmaps');
manager.add(
  new Controller({
    name: 'replicas',
    reconcile: async (key) => {
      const cm = configMaps.indexer.getByKey(key);
      if (cm === undefined || cm.data?.reconciledBy !== undefined) return;
      await client.patch(
        'configmaps',
        cm.metadata.name,
        [{ op: 'add', path: '/data', value: { reconciledBy: identity } }],
        { namespace: cm.metadata.namespace, type: 'json' },
      );
      print({ reconciled: key });
    },
  }).watch(configMaps),
);
const running = manager.start(setupSignalHandler());
// The metrics address is bound before the caches sync and the election starts.
const announce = setInterval(() => {
  if (manager.metricsAddress === undefined) return;
  clearInterval(announce);
  print({ metrics: manager.metricsAddress });
}, 10);
manager.elected.then(() => print({ leading: true }));
running.then(
  () => print({ stopped: true }),
  (error) => {
    print({ failed: String(error) });
    process.exitCode = 1;
  },
);
