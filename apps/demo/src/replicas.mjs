// Part 1: the replicas showcase controller (@ctrlkit/runtime's Controller and informers,
// @ctrlkit/workqueue, @ctrlkit/expectations) scales a ConfigMapSet up and down, and the
// owned ConfigMaps converge each time.
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
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
import { say } from './say.mjs';

/** Runs the replicas controller through 3 → 12 → 5 → 0 → 7 and stops it. */
export async function replicasDemo(kubeConfig) {
  await installCRDs(kubeConfig, [configMapSetCrd]);
  const namespace = await createTestNamespace(kubeConfig, 'demo-');
  say(`CRD ${configMapSetCrd.metadata.name} installed; namespace ${namespace}`);

  const stop = new AbortController();
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

  try {
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
  } finally {
    stop.abort();
    await controller.done;
  }
  say(
    overCreated > 0
      ? `controller stopped; at one point ${overCreated} ConfigMaps too many existed`
      : 'controller stopped; every scale converged, never more ConfigMaps than asked',
  );
}
