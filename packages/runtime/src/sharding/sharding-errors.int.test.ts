import { createClient, formatMicroTime } from '@ctrlkit/client';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ReconcileEntry,
  startTestReplica,
  type TestReplica,
} from '../../test/ring-harness.js';
import { HashRing } from './hash-ring.js';
import { drainLabel, RING_LABEL, RING_RESOURCES_ANNOTATION, shardLabel } from './ring-labels.js';
import { shardKey } from './shard-key.js';
import { ShardingError } from './sharding-error.js';

// What a ring does with bad input: a second ring of the same name over other resources, a
// shard label edited by hand, a replica without rights on Leases.

const WAIT = { timeoutMs: 60_000, intervalMs: 200 };
const replicas: TestReplica[] = [];
afterAll(async () => {
  for (const replica of replicas) replica.stop.abort();
  await Promise.allSettled(replicas.map((replica) => replica.running));
});

describe('sharding with bad input', () => {
  const kubeConfig = testKubeConfig();
  const client = createClient(kubeConfig);
  const ring = 'bad-input';
  const label = shardLabel(ring);
  const log: ReconcileEntry[] = [];

  async function shardOf(namespace: string, name: string): Promise<string | undefined> {
    const cm = await client.get<V1ConfigMap>('configmaps', name, { namespace });
    return cm.metadata?.labels?.[label];
  }

  it('a replica of a ring of the same name over other resources fails with RingConflict, and the sharder leaves such a shard out', async () => {
    const namespace = await createTestNamespace(kubeConfig, 'ring-conflict-');
    for (const name of ['a', 'b', 'c']) {
      await client.create('configmaps', { metadata: { name } }, { namespace });
    }
    const x = startTestReplica({ kubeConfig, namespace, ring, name: 'x', log });
    replicas.push(x);
    await waitFor('x a member', () => x.sharder.members().includes('x'), WAIT);
    const y = startTestReplica({
      kubeConfig,
      namespace,
      ring,
      name: 'y',
      log,
      resources: ['v1/secrets'],
    });
    replicas.push(y);
    const error = await y.running.then(
      () => undefined,
      (e: unknown) => e,
    );
    const cause = (error as { cause?: unknown }).cause;
    expect(ShardingError.isInstance(cause)).toBe(true);
    expect((cause as ShardingError).reason).toBe('RingConflict');
    expect(String((cause as Error).message)).toMatch(
      /ring bad-input: shard x shards v1\/configmaps but shard y shards v1\/secrets/,
    );
    // A Lease of the ring naming other resources, held and renewed: not a member.
    const now = formatMicroTime(new Date());
    await client.create('coordination.k8s.io/v1/leases', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: 'z',
        namespace,
        labels: { [RING_LABEL]: ring },
        annotations: { [RING_RESOURCES_ANNOTATION]: 'v1/secrets' },
      },
      spec: { holderIdentity: 'z', leaseDurationSeconds: 30, acquireTime: now, renewTime: now },
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(x.sharder.members()).toEqual(['x']);
    for (const name of ['a', 'b', 'c']) expect(await shardOf(namespace, name)).toBe('x');
    x.stop.abort();
    await x.running;
  });

  it('a shard label edited by hand is put right: an unknown shard at once, another live shard by a drain', async () => {
    const namespace = await createTestNamespace(kubeConfig, 'hand-edit-');
    const names = Array.from({ length: 20 }, (_, i) => `cm-${i}`);
    for (const name of names)
      await client.create('configmaps', { metadata: { name } }, { namespace });
    for (const name of ['p', 'q']) {
      replicas.push(startTestReplica({ kubeConfig, namespace, ring, name, log }));
    }
    const hash = new HashRing(['p', 'q']);
    const desired = (name: string) => hash.shardFor(shardKey({ metadata: { namespace, name } }));
    await waitFor(
      'every object on its shard',
      async () =>
        (
          await Promise.all(names.map(async (n) => (await shardOf(namespace, n)) === desired(n)))
        ).every(Boolean),
      WAIT,
    );
    const [first, second] = names as [string, string];
    const other = desired(second) === 'p' ? 'q' : 'p';
    await client.patch(
      'configmaps',
      first,
      { metadata: { labels: { [label]: 'nobody' } } },
      { namespace },
    );
    await client.patch(
      'configmaps',
      second,
      { metadata: { labels: { [label]: other } } },
      { namespace },
    );
    await waitFor(
      'both back on their shard, no drain label left',
      async () => {
        const cms = await Promise.all(
          [first, second].map((n) => client.get<V1ConfigMap>('configmaps', n, { namespace })),
        );
        return cms.every(
          (cm) =>
            cm.metadata?.labels?.[label] === desired(cm.metadata?.name ?? '') &&
            cm.metadata?.labels?.[drainLabel(ring)] === undefined,
        );
      },
      WAIT,
    );
    for (const name of names) expect(await shardOf(namespace, name)).toBe(desired(name));
  });

  it('a replica without rights on Leases fails with LeaseForbidden naming the verbs and namespace', async () => {
    const namespace = await createTestNamespace(kubeConfig, 'no-leases-');
    await client.create('serviceaccounts', { metadata: { name: 'shard' } }, { namespace });
    await client.create(
      'rbac.authorization.k8s.io/v1/roles',
      {
        metadata: { name: 'configmaps', namespace },
        rules: [
          { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'patch'] },
        ],
      },
      { namespace },
    );
    await client.create(
      'rbac.authorization.k8s.io/v1/rolebindings',
      {
        metadata: { name: 'configmaps', namespace },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmaps' },
        subjects: [{ kind: 'ServiceAccount', name: 'shard', namespace }],
      },
      { namespace },
    );
    const request = await client.requestJson<{ status?: { token?: string } }>(
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts/shard/token`,
      { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } },
    );
    expect(request.status?.token).toBeTruthy();
    const cluster = kubeConfig.getCurrentCluster();
    const user = new KubeConfig();
    user.loadFromOptions({
      clusters: [{ name: 'envtest', server: cluster?.server ?? '', caData: cluster?.caData }],
      users: [{ name: 'shard', token: request.status?.token }],
      contexts: [{ name: 'shard', cluster: 'envtest', user: 'shard' }],
      currentContext: 'shard',
    });
    const replica = startTestReplica({ kubeConfig: user, namespace, ring, name: 'forbidden', log });
    replicas.push(replica);
    const error = await replica.running.then(
      () => undefined,
      (e: unknown) => e,
    );
    const cause = (error as { cause?: unknown }).cause as ShardingError;
    expect(ShardingError.isInstance(cause)).toBe(true);
    expect(cause.reason).toBe('LeaseForbidden');
    expect(cause.message).toBe(
      `shard forbidden of ring bad-input may not create, get, list, update coordination.k8s.io leases in namespace ${namespace}: grant them to its service account`,
    );
  });
});
