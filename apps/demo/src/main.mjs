// The main job: starts a real local control plane (@ctrlkit/envtest) and shows ctrlkit at
// work on it: the replicas showcase controller, then the apps (a virtual node running pods,
// a DRA driver publishing that node's GPUs, a migration controller moving the VMs of an OVA
// catalog into KubeVirt), each run as its own process, as an operator would run them against
// any cluster.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startControlPlane } from '@ctrlkit/envtest';
import { gpuDemo } from './gpus.mjs';
import { migrationDemo } from './migration.mjs';
import { replicasDemo } from './replicas.mjs';
import { say } from './say.mjs';
import { nodeName, virtualNodeDemo } from './virtual-node.mjs';

console.log('ctrlkit demo: controllers built from the ctrlkit packages, on a local');
console.log('kube-apiserver and etcd started by @ctrlkit/envtest.\n');

const plane = await startControlPlane();
const logDir = mkdtempSync(join(tmpdir(), 'ctrlkit-demo-'));
const apps = [];
const shutDown = async () => {
  await Promise.all(apps.map((app) => app.stop()));
  await plane.stop();
};
process.once('SIGINT', () => void shutDown().then(() => process.exit(130)));
try {
  say(`control plane ready at ${plane.server} (kubeconfig: ${plane.kubeconfigPath})`);

  console.log('\n── 1. a controller: @ctrlkit/runtime, workqueue and expectations');
  await replicasDemo(plane.kubeConfig);

  console.log('\n── 2. apps/virtual-kubelet: a virtual node that runs pods');
  apps.push(await virtualNodeDemo(plane, logDir));

  console.log('\n── 3. apps/dra-example-driver: the GPUs of that node as DRA ResourceSlices');
  apps.push(await gpuDemo(plane, logDir, nodeName));

  console.log(
    '\n── 4. apps/migration-controller: an OVA catalog migrated into KubeVirt (Forklift plans)',
  );
  apps.push(await migrationDemo(plane, logDir));

  console.log('');
  say('SIGTERM to the apps');
  const codes = await Promise.all(apps.splice(0).map((app) => app.stop()));
  say(`  apps exited with ${codes.join(', ')}`);
} finally {
  await shutDown();
  say('control plane stopped');
}
