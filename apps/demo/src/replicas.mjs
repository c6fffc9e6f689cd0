// The main job, until the controller apps exist: starts a real local control plane
// (@ctrlkit/envtest), runs the replicas showcase controller on it (@ctrlkit/runtime's
// Controller and informers, @ctrlkit/workqueue, @ctrlkit/expectations), scales a
// ConfigMapSet up and down, and shows the owned ConfigMaps converging each time.
import { createTestNamespace, installCRDs, startControlPlane } from '@ctrlkit/envtest';
import {
  configMapSetCrd,
  group,
  ownerLabel,
  plural,
  startReplicasController,
  version,
} from '@ctrlkit/example-replicas';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { CustomObjectsApi } from '@kubernetes/client-node';

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s`;
const say = (message) => console.log(`${elapsed()}  ${message}`);

console.log('ctrlkit demo: a controller built from @ctrlkit/runtime, workqueue and expectations,');
console.log('on a local kube-apiserver and etcd started by @ctrlkit/envtest.\n');

const plane = await startControlPlane();
const stop = new AbortController();
const shutDown = async () => {
  stop.abort();
  await plane.stop();
};
process.once('SIGINT', () => void shutDown().then(() => process.exit(130)));
try {
  say(`control plane ready at ${plane.server} (kubeconfig: ${plane.kubeconfigPath})`);
  const { kubeConfig } = plane;
  await installCRDs(kubeConfig, [configMapSetCrd]);
  const namespace = await createTestNamespace(kubeConfig, 'demo-');
  say(`CRD ${configMapSetCrd.metadata.name} installed; namespace ${namespace}`);

  const controller = startReplicasController({ kubeConfig, namespace, workers: 4 }, stop.signal);
  const observer = new SharedInformerFactory(kubeConfig, { namespace });
  const configMaps = observer.forResource('v1/configmaps', { labelSelector: ownerLabel });
  observer.start(stop.signal);

  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const name = 'web';
  let overCreated = 0;
  let before = 0;
  const converge = async (replicas) => {
    const deadline = performance.now() + 60_000;
    let last = -1;
    while (performance.now() < deadline) {
      const count = configMaps.indexer.size;
      if (count !== last) say(`  ${count} of ${replicas} ConfigMaps owned by ${namespace}/${name}`);
      last = count;
      overCreated = Math.max(overCreated, count - Math.max(before, replicas));
      if (count === replicas) {
        before = replicas;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`did not converge to ${replicas} ConfigMaps within 60 s`);
  };

  say(`create ConfigMapSet ${name} with replicas 3`);
  await custom.createNamespacedCustomObject({
    group,
    version,
    namespace,
    plural,
    body: {
      apiVersion: `${group}/${version}`,
      kind: 'ConfigMapSet',
      metadata: { name },
      spec: { replicas: 3 },
    },
  });
  await converge(3);
  for (const replicas of [12, 5, 0, 7]) {
    say(`scale to ${replicas}`);
    await custom.patchNamespacedCustomObject({
      group,
      version,
      namespace,
      plural,
      name,
      body: [{ op: 'replace', path: '/spec/replicas', value: replicas }],
    });
    await converge(replicas);
  }
  stop.abort();
  await controller.done;
  say(
    overCreated > 0
      ? `controller stopped; at one point ${overCreated} ConfigMaps too many existed`
      : 'controller stopped; every scale converged, never more ConfigMaps than asked',
  );
} finally {
  await shutDown();
  say('control plane stopped');
}
