// Part 2: apps/virtual-kubelet registers a virtual Node and runs the pods bound to it on
// its mock provider; the demo creates pods on the node, watches them run, deletes them.
import { join } from 'node:path';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import { binOf, freePort, startApp } from './apps.mjs';
import { say } from './say.mjs';

/** The virtual Node's name; the DRA driver publishes this node's GPUs. */
export const nodeName = 'vk-demo';

/** Starts the virtual kubelet, runs 5 pods on it, deletes them; returns the running app. */
export async function virtualNodeDemo(plane, logDir) {
  const client = createClient(plane.kubeConfig);
  const logPath = join(logDir, 'virtual-kubelet.log');
  const app = startApp(
    binOf('@ctrlkit/virtual-kubelet', 'ctrlkit-virtual-kubelet'),
    [
      ...['--kubeconfig', plane.kubeconfigPath, '--nodename', nodeName, '--provider', 'mock'],
      ...['--metrics-addr', '0', '--healthz-addr', '0', '--internal-ip', '127.0.0.1'],
      ...['--listen-port', String(await freePort())],
    ],
    logPath,
  );
  say(`ctrlkit-virtual-kubelet --nodename ${nodeName} --provider mock (log: ${logPath})`);
  await waitFor('the virtual node Ready', async () => {
    const node = await client.get('nodes', nodeName);
    return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  });
  const node = await client.get('nodes', nodeName);
  say(
    `  node ${nodeName} Ready: ${node.status?.capacity?.cpu} CPUs, ${node.status?.capacity?.memory}, ` +
      `${node.status?.capacity?.pods} pods`,
  );

  const namespace = await createTestNamespace(plane.kubeConfig, 'vk-demo-');
  const names = ['web-0', 'web-1', 'web-2', 'worker-0', 'worker-1'];
  say(`create ${names.length} pods bound to ${nodeName} in ${namespace}`);
  for (const name of names) {
    await client.create(
      'pods',
      {
        metadata: { name },
        spec: { nodeName, containers: [{ name: 'main', image: 'registry.example/app:1' }] },
      },
      { namespace },
    );
  }
  let last = -1;
  await waitFor('the pods to run', async () => {
    const pods = await client.list('pods', { namespace });
    const running = pods.items.filter((p) => p.status?.phase === 'Running');
    if (running.length !== last) {
      last = running.length;
      const ips = [...new Set(running.map((p) => p.status?.podIP))].join(', ');
      say(`  ${running.length} of ${names.length} pods Running${ips ? ` (pod IP ${ips})` : ''}`);
    }
    return running.length === names.length;
  });

  say('delete the worker pods');
  for (const name of names.filter((n) => n.startsWith('worker'))) {
    await client.delete('pods', name, { namespace });
  }
  await waitFor('the deleted pods gone', async () => {
    const pods = await client.list('pods', { namespace });
    return pods.items.length === names.length - 2;
  });
  say('  the provider stopped them and the virtual kubelet removed them: 3 pods left');
  return app;
}
