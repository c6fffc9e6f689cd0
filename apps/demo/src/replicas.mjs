// Part 1: the replicas showcase controller (@ctrlkit/runtime's Controller and informers,
// @ctrlkit/workqueue, @ctrlkit/expectations) scales a ConfigMapSet up and down, and the
// owned ConfigMaps converge each time.
import { waitFor } from '@ctrlkit/core/testing';
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
import { createClient } from '@ctrlkit/runtime/client';
import { say } from './say.mjs';

/** Runs the replicas controller through 3 → 12 → 5 → 0 → 7 and stops it. */
export async function replicasDemo(kubeConfig, outcomes) {
  await installCRDs(kubeConfig, [configMapSetCrd]);
  const namespace = await createTestNamespace(kubeConfig, 'demo-');
  say(`CRD ${configMapSetCrd.metadata.name} installed; namespace ${namespace}`);

  const stop = new AbortController();
  const client = createClient(kubeConfig, { program: { name: 'ctrlkit-demo' } });
  const controller = startReplicasController({ client, namespace, workers: 4 }, stop.signal);
  const observer = new SharedInformerFactory(client, { namespace });
  const configMaps = observer.forResource('v1/configmaps', { labelSelector: ownerLabel });
  observer.start(stop.signal);

  const configMapSets = { group, version, resource: plural };
  const name = 'web';
  let overCreated = 0;
  let before = 0;
  const converge = async (replicas) => {
    let last = -1;
    await waitFor(
      `${replicas} ConfigMaps`,
      () => {
        const count = configMaps.indexer.size;
        if (count !== last)
          say(`  ${count} of ${replicas} ConfigMaps owned by ${namespace}/${name}`);
        last = count;
        overCreated = Math.max(overCreated, count - Math.max(before, replicas));
        return count === replicas;
      },
      { timeoutMs: 60_000, intervalMs: 20 },
    );
    before = replicas;
  };

  try {
    say(`create ConfigMapSet ${name} with replicas 3`);
    await client.create(
      configMapSets,
      {
        apiVersion: `${group}/${version}`,
        kind: 'ConfigMapSet',
        metadata: { name },
        spec: { replicas: 3 },
      },
      { namespace },
    );
    await converge(3);
    for (const replicas of [12, 5, 0, 7]) {
      say(`scale to ${replicas}`);
      await client.patch(
        configMapSets,
        name,
        [{ op: 'replace', path: '/spec/replicas', value: replicas }],
        { namespace, type: 'json' },
      );
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
  outcomes.push({
    what: 'replicas',
    ok: overCreated === 0,
    detail: `ConfigMapSet scaled 3 → 12 → 5 → 0 → 7, converged each time${overCreated > 0 ? `, ${overCreated} too many at one point` : ''}`,
  });
}
