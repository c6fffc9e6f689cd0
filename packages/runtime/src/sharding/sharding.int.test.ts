import { createClient } from '@ctrlkit/client';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import {
  overlappingReconciles,
  type ReconcileEntry,
  startTestReplica,
  type TestReplica,
} from '../../test/ring-harness.js';
import { HashRing } from './hash-ring.js';
import { drainLabel, shardLabel } from './ring-labels.js';
import { formatRingStatus, readRingStatus } from './ring-status.js';
import { shardKey } from './shard-key.js';

// Three in-process replicas (each its own Manager, client and caches) of a sharded ConfigMap
// controller, on the run's control plane; every replica also runs a sharder candidate.

const OBJECTS = 300;
const WAIT = { timeoutMs: 60_000, intervalMs: 200 };
const replicas: TestReplica[] = [];
afterAll(async () => {
  for (const replica of replicas) replica.stop.abort();
  await Promise.allSettled(replicas.map((replica) => replica.running));
});

function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('a ring of sharded controllers on a real apiserver', () => {
  const kubeConfig = testKubeConfig();
  const client = createClient(kubeConfig, { qps: 500, burst: 1_000 });
  const ring = 'configmaps';
  const label = shardLabel(ring);
  const log: ReconcileEntry[] = [];
  let namespace = '';

  async function labels(): Promise<Map<string, string | undefined>> {
    const list = await client.list<V1ConfigMap>('configmaps', { namespace });
    return new Map(list.items.map((cm) => [cm.metadata?.name ?? '', cm.metadata?.labels?.[label]]));
  }

  async function createConfigMaps(from: number, to: number): Promise<void> {
    const names = Array.from({ length: to - from }, (_, i) => `cm-${from + i}`);
    for (let i = 0; i < names.length; i += 20) {
      await Promise.all(
        names
          .slice(i, i + 20)
          .map((name) => client.create('configmaps', { metadata: { name } }, { namespace })),
      );
    }
  }

  /** Every ConfigMap labelled with a live shard, none draining, and reconciled by it since `since`. */
  async function settled(
    shards: readonly string[],
    since: number,
  ): Promise<Map<string, string | undefined>> {
    const list = await client.list<V1ConfigMap>('configmaps', { namespace });
    const current = new Map<string, string | undefined>();
    for (const cm of list.items) {
      const shard = cm.metadata?.labels?.[label];
      if (shard === undefined || !shards.includes(shard)) return new Map();
      if (cm.metadata?.labels?.[drainLabel(ring)] !== undefined) return new Map();
      const key = `${namespace}/${cm.metadata?.name}`;
      if (!log.some((e) => e.key === key && e.shard === shard && e.end >= since)) return new Map();
      current.set(cm.metadata?.name ?? '', shard);
    }
    return current.size === OBJECTS ? current : new Map();
  }

  it('labels every object with one shard of three and each is reconciled by that shard only', async () => {
    namespace = await createTestNamespace(kubeConfig, 'sharding-');
    await createConfigMaps(0, OBJECTS / 2);
    const start = performance.now();
    for (const name of ['shard-a', 'shard-b', 'shard-c']) {
      replicas.push(startTestReplica({ kubeConfig, namespace, ring, name, log }));
    }
    await waitFor(
      'a sharder leading with three shards',
      () => replicas.some((r) => r.sharder.members().length === 3),
      WAIT,
    );
    // New objects are labelled by the sharder's watch: the last 20 one by one, timed from
    // the create's answer to the label seen by a GET.
    await createConfigMaps(OBJECTS / 2, OBJECTS - 20);
    const delays: number[] = [];
    for (let i = OBJECTS - 20; i < OBJECTS; i++) {
      const created = performance.now();
      await client.create('configmaps', { metadata: { name: `cm-${i}` } }, { namespace });
      await waitFor(
        `cm-${i} labelled`,
        async () =>
          (await client.get<V1ConfigMap>('configmaps', `cm-${i}`, { namespace })).metadata
            ?.labels?.[label],
        { timeoutMs: 10_000, intervalMs: 5 },
      );
      delays.push(performance.now() - created);
    }
    delays.sort((a, b) => a - b);
    const assigned = await waitFor(
      'every object settled',
      () => settled(['shard-a', 'shard-b', 'shard-c'], start),
      { ...WAIT, until: (current) => current.size === OBJECTS },
    );
    const expected = new HashRing(['shard-a', 'shard-b', 'shard-c']);
    for (const [name, shard] of assigned) {
      expect(shard).toBe(expected.shardFor(shardKey({ metadata: { namespace, name } })));
    }
    const perShard = new Map<string, number>();
    for (const shard of assigned.values())
      perShard.set(shard as string, (perShard.get(shard as string) ?? 0) + 1);
    for (const count of perShard.values()) expect(count).toBeGreaterThan(OBJECTS / 3 / 2);
    expect(overlappingReconciles(log)).toEqual([]);
    // Each shard's cache holds only its share.
    for (const replica of replicas) {
      const cached = replica.shard.informer('v1/configmaps').indexer.list().length;
      expect(cached).toBe(perShard.get(replica.name));
    }
    // The status view (ctrlkit-shards) reads the same from the API server.
    const status = await readRingStatus(client, {
      ring,
      leaseNamespace: namespace,
      resources: ['v1/configmaps'],
      namespace,
    });
    expect(status.unassigned).toBe(0);
    expect(status.orphaned).toBe(0);
    expect(status.shards.map((s) => [s.name, s.alive, s.objects, s.draining])).toEqual(
      ['shard-a', 'shard-b', 'shard-c'].map((name) => [name, true, perShard.get(name), 0]),
    );
    expect(['shard-a', 'shard-b', 'shard-c']).toContain(status.sharder);
    const table = formatRingStatus(status);
    expect(table).toMatch(/^SHARD\s+STATE\s+OBJECTS/m);
    expect(table).toMatch(new RegExp(`^shard-a\\s+ready\\s+${perShard.get('shard-a')}\\s`, 'm'));
    const leader = replicas.find((r) => r.sharder.isLeader()) as TestReplica;
    const metrics = await leader.manager.registry.metrics();
    const delayCount = sample(
      metrics,
      `ctrlkit_sharding_assignment_delay_seconds_count{ring="${ring}"}`,
    );
    const delaySum = sample(
      metrics,
      `ctrlkit_sharding_assignment_delay_seconds_sum{ring="${ring}"}`,
    );
    expect(delayCount).toBeGreaterThan(0);
    console.log(
      `sharding: ${OBJECTS} objects over 3 shards ${JSON.stringify(Object.fromEntries(perShard))}; ` +
        `new-object assignment delay (sharder metric) mean ${((delaySum / delayCount) * 1000).toFixed(1)} ms over ${delayCount}; ` +
        `create → label seen, one at a time: median ${delays[10]?.toFixed(0)} ms, max ${delays[19]?.toFixed(0)} ms`,
    );
  });

  it('moves about 1/4 of the objects, with the drain handshake, to a fourth replica', async () => {
    const before = await labels();
    const start = performance.now();
    replicas.push(startTestReplica({ kubeConfig, namespace, ring, name: 'shard-d', log }));
    const shards = ['shard-a', 'shard-b', 'shard-c', 'shard-d'];
    const after = await waitFor('every object settled on four shards', () => settled(shards, 0), {
      ...WAIT,
      until: (current) => current.size === OBJECTS && [...current.values()].includes('shard-d'),
    });
    const expected = new HashRing(shards);
    const moved = [...after].filter(([name, shard]) => before.get(name) !== shard);
    for (const [name, shard] of after) {
      expect(shard).toBe(expected.shardFor(shardKey({ metadata: { namespace, name } })));
    }
    for (const [, shard] of moved) expect(shard).toBe('shard-d');
    expect(moved.length / OBJECTS).toBeGreaterThan(0.25 * 0.5);
    expect(moved.length / OBJECTS).toBeLessThan(0.25 * 1.5);
    // The moved objects were reconciled by shard-d after the move.
    for (const [name] of moved) {
      expect(
        log.some(
          (e) => e.key === `${namespace}/${name}` && e.shard === 'shard-d' && e.start >= start,
        ),
      ).toBe(true);
    }
    expect(overlappingReconciles(log)).toEqual([]);
    const leader = replicas.find((r) => r.sharder.isLeader()) as TestReplica;
    const metrics = await leader.manager.registry.metrics();
    const drains = sample(metrics, `ctrlkit_sharding_moves_total{ring="${ring}",reason="drain"}`);
    const drainSum = sample(metrics, `ctrlkit_sharding_drain_duration_seconds_sum{ring="${ring}"}`);
    const drainCount = sample(
      metrics,
      `ctrlkit_sharding_drain_duration_seconds_count{ring="${ring}"}`,
    );
    expect(drains).toBeGreaterThan(0);
    console.log(
      `sharding: a 4th shard took ${moved.length}/${OBJECTS} objects in ${((performance.now() - start) / 1000).toFixed(1)} s; ` +
        `drain mean ${((drainSum / drainCount) * 1000).toFixed(0)} ms over ${drainCount}`,
    );
  });

  it('a replica stopped gracefully stops reconciling, and its objects move before it exits', async () => {
    const leaving = replicas.find((r) => r.name === 'shard-b') as TestReplica;
    const owned = [...(await labels()).values()].filter((shard) => shard === 'shard-b').length;
    expect(owned).toBeGreaterThan(0);
    const start = performance.now();
    leaving.stop.abort();
    await leaving.running;
    const stoppedAt = performance.now();
    const left = [...(await labels()).values()].filter((shard) => shard === 'shard-b').length;
    expect(left).toBe(0);
    const shards = ['shard-a', 'shard-c', 'shard-d'];
    await waitFor(
      'every object settled on the other three',
      async () => {
        const current = await settled(shards, 0);
        return current.size === OBJECTS ? current : undefined;
      },
      WAIT,
    );
    expect(log.filter((e) => e.shard === 'shard-b' && e.end > stoppedAt)).toEqual([]);
    expect(overlappingReconciles(log)).toEqual([]);
    console.log(
      `sharding: a graceful stop handed over ${owned} objects in ${((stoppedAt - start) / 1000).toFixed(1)} s`,
    );
  });
});
