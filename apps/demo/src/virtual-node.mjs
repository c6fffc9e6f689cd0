// Part 2: apps/virtual-kubelet registers a virtual Node whose pods run as local child
// processes (its process provider); kube-scheduler places a Deployment's pods on that node.
import { join } from 'node:path';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, freePort } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import { binOf, sleeperPids, startApp } from './apps.mjs';
import { say } from './say.mjs';

/** The virtual Node's name; the DRA driver publishes this node's GPUs. */
export const nodeName = 'vk-demo';
/** Replicas of the demo's Deployment. */
export const replicas = 6;
/** The node Lease's duration: renewed every quarter of it, well inside the grace period. */
const LEASE_SECONDS = 12;
/** Seconds the containers sleep: no other process on the machine sleeps that long. */
export const sleepSeconds = 86_400 + (process.pid % 10_000);
/** The toleration of the node's own taint, as virtual-kubelet users write it. */
export const toleration = { key: 'virtual-kubelet.io/provider', operator: 'Exists' };

/**
 * The node's DRA folders under the demo's `workDir`, as the kubelet's under /var/lib/kubelet
 * and /var/run/cdi: where kubelet plugins register, keep their sockets, and write CDI specs.
 */
export function draDirs(workDir) {
  return {
    registry: join(workDir, 'plugins_registry'),
    plugins: join(workDir, 'plugins'),
    cdi: join(workDir, 'cdi'),
  };
}

/**
 * The virtual kubelet as a restartable process: `start()` runs it (again), `kill()` SIGKILLs
 * it, `stop()` sends SIGTERM.
 */
export async function virtualKubelet(plane, logDir) {
  const logPath = join(logDir, 'virtual-kubelet.log');
  const dra = draDirs(logDir);
  const args = [
    ...['--kubeconfig', plane.kubeconfigPath, '--nodename', nodeName, '--provider', 'process'],
    ...['--plugins-registry-dir', dra.registry, '--cdi-spec-dirs', dra.cdi],
    ...['--node-lease-duration-seconds', String(LEASE_SECONDS), '--internal-ip', '127.0.0.1'],
    ...['--metrics-addr', '0', '--healthz-addr', '0', '--listen-port', String(await freePort())],
  ];
  const bin = binOf('@ctrlkit/virtual-kubelet', 'ctrlkit-virtual-kubelet');
  let app;
  return {
    logPath,
    start() {
      app = startApp(bin, args, logPath);
    },
    kill: () => app.kill(),
    stop: () => app.stop(),
  };
}

/** Starts the virtual kubelet and has kube-scheduler place a Deployment on its node. */
export async function virtualNodeDemo(plane, vk, outcomes) {
  const client = createClient(plane.kubeConfig, { program: { name: 'ctrlkit-demo' } });
  vk.start();
  say(`ctrlkit-virtual-kubelet --nodename ${nodeName} --provider process (log: ${vk.logPath})`);
  await waitFor('the virtual node Ready', async () => {
    const node = await client.get('nodes', nodeName);
    return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  });
  const node = await client.get('nodes', nodeName);
  say(
    `  node ${nodeName} Ready: ${node.status?.capacity?.cpu} CPUs, ${node.status?.capacity?.memory}, ` +
      `${node.status?.capacity?.pods} pods, taint ${node.spec?.taints?.map((t) => t.key).join(', ')}`,
  );

  const namespace = await createTestNamespace(plane.kubeConfig, 'web-');
  await waitFor('the default ServiceAccount', () =>
    client.get('serviceaccounts', 'default', { namespace }),
  );
  const labels = { app: 'web' };
  await client.create(
    'apps/v1/deployments',
    {
      metadata: { name: 'web' },
      spec: {
        replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            tolerations: [toleration],
            terminationGracePeriodSeconds: 2,
            containers: [
              { name: 'main', image: 'busybox', command: ['sleep', String(sleepSeconds)] },
            ],
          },
        },
      },
    },
    { namespace },
  );
  say(
    `Deployment web (${replicas} replicas, no nodeName) in ${namespace}: kube-scheduler places it`,
  );
  const pods = await waitFor(
    'the Deployment running on the virtual node',
    async () => (await client.list('pods', { namespace })).items,
    {
      timeoutMs: 120_000,
      until: (items) =>
        items.length === replicas && items.every((p) => p.status?.phase === 'Running'),
    },
  );
  const placed = pods.filter((p) => p.spec?.nodeName === nodeName).length;
  const processes = sleeperPids(sleepSeconds).length;
  say(`  ${placed} of ${replicas} pods bound to ${nodeName} by kube-scheduler, all Running`);
  say(`  ${processes} child processes run their containers (sleep ${sleepSeconds})`);
  outcomes.push({
    what: 'scheduling',
    ok: placed === replicas && processes === replicas,
    detail: `kube-scheduler placed ${placed}/${replicas} pods on ${nodeName}; ${processes} running as local processes`,
  });
  return { namespace, uids: pods.map((p) => p.metadata.uid).sort() };
}
