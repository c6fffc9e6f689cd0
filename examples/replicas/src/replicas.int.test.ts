import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { Client, createClient, type RawWatchEvent } from '@ctrlkit/runtime/client';
import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { configMapSetCrd, group, ownerLabel, plural, version } from './configmapset-crd.js';
import { startReplicasController } from './replicas-controller.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How late the controller sees ConfigMap events: a slow watch, as on a busy apiserver. */
const WATCH_LAG_MS = 300;

/**
 * The controller's client, with every ConfigMap watch event delivered `WATCH_LAG_MS` after
 * it arrived (in order): the controller's cache lags behind what it has created, which is
 * what expectations are for. Everything else goes to the apiserver as usual.
 */
class LaggingWatchClient extends Client {
  override async watch(
    path: string,
    query: Parameters<Client['watch']>[1],
    accept: string,
    onEvent: (event: RawWatchEvent) => void,
    signal?: AbortSignal,
    idleTimeoutMs?: number,
  ): Promise<void> {
    if (!path.endsWith('/configmaps')) {
      return super.watch(path, query, accept, onEvent, signal, idleTimeoutMs);
    }
    let delivered = Promise.resolve();
    const lagged = (event: RawWatchEvent) => {
      const due = performance.now() + WATCH_LAG_MS;
      delivered = delivered.then(async () => {
        await sleep(due - performance.now());
        if (!signal?.aborted) onEvent(event);
      });
    };
    try {
      await super.watch(path, query, accept, lagged, signal, idleTimeoutMs);
    } finally {
      await delivered;
    }
  }
}

/**
 * Runs the controller with 4 workers, its ConfigMap events late (a {@link LaggingWatchClient}),
 * while a ConfigMapSet's replicas change 50 times in quick succession; an independent
 * informer (without lag) watches the owned ConfigMaps and records, at every event it sees,
 * how many exist and the largest replicas asked for so far.
 */
async function runScenario(kubeConfig: KubeConfig, expectations: boolean) {
  const namespace = await createTestNamespace(kubeConfig, 'replicas-');
  const client = createClient(kubeConfig);
  const sets = { group, version, resource: plural };
  const stop = new AbortController();
  const observer = new SharedInformerFactory(kubeConfig, { namespace });
  const observed = observer.forResource<V1ConfigMap>('v1/configmaps', {
    labelSelector: ownerLabel,
  });
  let maxAsked = 0;
  let maxSeen = 0;
  let overshoot = 0;
  const record = () => {
    const count = observed.indexer.size;
    maxSeen = Math.max(maxSeen, count);
    if (count > maxAsked) overshoot = Math.max(overshoot, count - maxAsked);
  };
  observed.addEventHandler({ onAdd: record, onDelete: record });
  observer.start(stop.signal);
  const controller = startReplicasController(
    { client: new LaggingWatchClient(kubeConfig), namespace, workers: 4, expectations },
    stop.signal,
  );

  const name = 'set';
  let replicas = 3;
  maxAsked = replicas;
  await client.create(
    sets,
    {
      apiVersion: `${group}/${version}`,
      kind: 'ConfigMapSet',
      metadata: { name },
      spec: { replicas },
    },
    { namespace },
  );
  // 50 rapid changes, each a few milliseconds after the last: the controller's cache lags behind.
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let change = 0; change < 50; change++) {
    replicas = Math.floor(random() * 12);
    maxAsked = Math.max(maxAsked, replicas);
    await client.patch(sets, name, [{ op: 'replace', path: '/spec/replicas', value: replicas }], {
      namespace,
      type: 'json',
    });
    await sleep(5 + random() * 20);
  }
  const last = replicas;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && observed.indexer.size !== last) await sleep(50);
  await sleep(1000); // and it stays there
  const final = observed.indexer.size;
  stop.abort();
  await controller.done;
  client.close();
  return { maxAsked, maxSeen, overshoot, final, last };
}

describe('replicas showcase', () => {
  let kubeConfig: KubeConfig;
  beforeAll(async () => {
    kubeConfig = testKubeConfig();
    // As generated, with its conversion webhook (no server runs it in this file: v1 only here,
    // the storage version, which needs no conversion).
    await installCRDs(kubeConfig, [configMapSetCrd]);
  });

  it('with expectations: never more ConfigMaps than the largest N asked, and converges to the last N', async () => {
    const result = await runScenario(kubeConfig, true);
    console.info('with expectations:', result);
    expect(result.overshoot).toBe(0);
    expect(result.maxSeen).toBeLessThanOrEqual(result.maxAsked);
    expect(result.final).toBe(result.last);
  });

  it('without expectations: the stale cache makes it create more than asked', async () => {
    const result = await runScenario(kubeConfig, false);
    console.info('without expectations:', result);
    expect(result.overshoot).toBeGreaterThan(0);
  });
});
