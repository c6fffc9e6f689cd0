import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createClient } from '@ctrlkit/client';
import { errorMessage } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig, testKubeconfigPath } from '@ctrlkit/envtest/vitest';
import type { V1ConfigMap, V1Lease } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { openKeys, overlaps, toIntervals } from '../../test/reconcile-intervals.js';
import { type ShardProcess, ShardProcesses } from '../../test/shard-processes.js';
import { HashRing } from './hash-ring.js';
import { drainLabel, shardLabel } from './ring-labels.js';
import { shardKey } from './shard-key.js';
import { sharderLeaseName } from './sharder.js';

// Replicas of a sharded ConfigMap controller as processes (test/shard-replica.mjs, on the built
// package), each reaching the apiserver through a TCP proxy process of its own
// (test/tcp-proxy.ts), over 3,000 ConfigMaps. Each reconcile waits 200-400 ms whatever its abort
// signal says (the worst case for a hand-over) and is logged at its start and its end
// (Date.now(), one machine); 64 workers per replica. The proof reads the intervals: no key is ever in two replicas' open
// intervals at once (a SIGKILLed replica's open reconciles count up to its Lease's expiry).
//
// Leases of 8 s (renew deadline 4 s, retry 1 s) instead of 15/10/2 s keep the run short; the
// order of events that the guarantee rests on is the same: a partitioned shard stops within
// retry + renew deadline (5 s) plus its in-flight reconciles (<= 0.4 s), before its Lease
// expires (8 s after its last renewal) and the sharder moves its keys; a renew deadline of 4 s
// still lets a replica renew on a machine under heavy load. While partitioned, the shard is told
// to reconcile all its keys every 300 ms: a shard that went on working would overlap.

const OBJECTS = 3_000;
const RING = 'processes';
const LEASE = { durationMs: 8_000, renewDeadlineMs: 4_000, retryPeriodMs: 1_000 };
const WAIT_MS = 240_000;
const label = shardLabel(RING);
const results: Record<string, unknown> = {};
let processes: ShardProcesses | undefined;
afterAll(() => processes?.stopAll());
/** The replicas, once the first test has started them. */
const pool = (): ShardProcesses => processes as ShardProcesses;

describe('3,000 objects, replicas as processes, reconciles of 200-400 ms', () => {
  const kubeConfig = testKubeConfig();
  const client = createClient(kubeConfig, { qps: 1_000, burst: 2_000 });
  let namespace = '';
  const live = new Set<string>();
  const started = Date.now();

  const list = async () => (await client.list<V1ConfigMap>('configmaps', { namespace })).items;
  const owners = async () =>
    new Map(
      (await list()).map((cm) => [
        `${namespace}/${cm.metadata?.name}`,
        cm.metadata?.labels?.[label],
      ]),
    );
  const fail = (error: unknown): never => {
    throw new Error(`${errorMessage(error)}\n${pool().output()}`, { cause: error });
  };
  /**
   * Every object on a live shard, every live shard with objects, none draining; each object
   * reconciled by its shard, and if its shard changed since `before`, after `since`.
   */
  const settle = async (what: string, before: Map<string, string | undefined>, since: number) => {
    const deadline = Date.now() + WAIT_MS;
    while (!(await settled(before, since))) {
      // A replica that stopped on its own (its Lease lost on an overloaded machine) fails the
      // run at once, naming it, rather than at the timeout.
      const stopped = pool().replicas.filter(
        (r) => live.has(r.name) && r.notes.some((n) => 'failed' in n),
      );
      if (stopped.length > 0)
        fail(new Error(`${what}: ${stopped.map((r) => r.name)} stopped on its own`));
      if (Date.now() > deadline)
        fail(new Error(`timed out after ${WAIT_MS} ms waiting for ${what}`));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  const settled = async (before: Map<string, string | undefined>, since: number) => {
    const items = await list();
    const used = new Set(items.map((cm) => cm.metadata?.labels?.[label]));
    return (
      items.length === OBJECTS &&
      [...live].every((shard) => used.has(shard)) &&
      items.every((cm) => {
        const key = `${namespace}/${cm.metadata?.name}`;
        const shard = cm.metadata?.labels?.[label];
        if (shard === undefined || !live.has(shard)) return false;
        if (cm.metadata?.labels?.[drainLabel(RING)] !== undefined) return false;
        const ended = pool().lastEnd(shard, key);
        return ended !== undefined && (before.get(key) === shard || ended >= since);
      })
    );
  };
  const sharderHolder = async () =>
    (
      await client.get<V1Lease>('coordination.k8s.io/v1/leases', sharderLeaseName(RING), {
        namespace,
      })
    ).spec?.holderIdentity;
  /** Wall ms at which `shard`'s Lease expires, from its last renewal as the apiserver holds it. */
  const leaseExpiry = async (shard: string) => {
    const lease = await client.get<V1Lease>('coordination.k8s.io/v1/leases', shard, { namespace });
    return (
      new Date(String(lease.spec?.renewTime)).getTime() +
      (lease.spec?.leaseDurationSeconds ?? 0) * 1000
    );
  };
  /** Enqueues every replica's share, and waits until `victim` has at least 20 reconciles open. */
  const busy = async (victim: ShardProcess) => {
    for (const name of live)
      pool()
        .replicas.find((r) => r.name === name)
        ?.send('resync');
    await waitFor('reconciles open', () => openKeys(pool().events, victim.name).size, {
      timeoutMs: 30_000,
      intervalMs: 20,
      until: (open) => open >= 20,
    }).catch(fail);
  };
  const startReplica = (name: string) => {
    live.add(name);
    return pool().start(name);
  };

  it('labels every object with one of three shards; each is reconciled by its shard', async () => {
    namespace = await createTestNamespace(kubeConfig, 'sharding-scale-');
    processes = new ShardProcesses({
      kubeconfigPath: testKubeconfigPath(),
      namespace,
      ring: RING,
      env: {
        REPLICA_WORKERS: '64',
        REPLICA_RECONCILE_MS: '200-400',
        REPLICA_ASSIGNERS: '64',
        REPLICA_LEASE: `${LEASE.durationMs}/${LEASE.renewDeadlineMs}/${LEASE.retryPeriodMs}`,
      },
    });
    const createStart = Date.now();
    for (let i = 0; i < OBJECTS; i += 150) {
      await Promise.all(
        Array.from({ length: 150 }, (_, j) =>
          client.create('configmaps', { metadata: { name: `cm-${i + j}` } }, { namespace }),
        ),
      );
    }
    results.createMs = Date.now() - createStart;
    const start = Date.now();
    for (const name of ['p-1', 'p-2', 'p-3']) await startReplica(name);
    await settle('every object on one of three shards, reconciled there', new Map(), 0);
    results.initialSettleMs = Date.now() - start;
    const shown = ringStatus(namespace);
    expect(shown.stderr).toBe('');
    expect(shown.stdout).toMatch(/^ring processes {3}sharder: p-\d/);
    for (const name of live)
      expect(shown.stdout).toMatch(new RegExp(`^${name}\\s+ready\\s+\\d+`, 'm'));
    expect(shown.stdout).toMatch(/unassigned: 0 {3}labelled with an unknown shard: 0/);
  });

  it('a fourth replica joins while every replica reconciles: ~1/4 of the objects move to it', async () => {
    const before = await owners();
    for (const replica of pool().replicas) replica.send('resync');
    const start = Date.now();
    await startReplica('p-4');
    await settle('every object settled on four shards', before, start);
    const after = await owners();
    const moved = [...after].filter(([key, shard]) => before.get(key) !== shard);
    for (const [, shard] of moved) expect(shard).toBe('p-4');
    expect(moved.length / OBJECTS).toBeGreaterThan(0.25 * 0.5);
    expect(moved.length / OBJECTS).toBeLessThan(0.25 * 1.5);
    results.join = { moved: moved.length, settleMs: Date.now() - start };
  });

  it("a SIGKILLed replica's open reconciles: no successor starts those keys before its Lease expires", async () => {
    const holder = await sharderHolder();
    const victim = pool().replicas.find(
      (r) => live.has(r.name) && r.name !== holder,
    ) as ShardProcess;
    const before = await owners();
    await busy(victim);
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    await victim.closed;
    live.delete(victim.name);
    const open = openKeys(pool().events, victim.name);
    const expiry = await leaseExpiry(victim.name);
    await settle(`${victim.name}'s objects moved to the others and reconciled`, before, killedAt);
    const successors = pool().events.filter(
      (e) => e.ev === 'start' && e.shard !== victim.name && open.has(e.key) && e.t >= killedAt,
    );
    // Every open key was started again by its new shard, none before the dead one's Lease expired.
    expect(new Set(successors.map((e) => e.key)).size).toBe(open.size);
    expect(successors.filter((e) => e.t < expiry)).toEqual([]);
    const first = Math.min(...successors.map((e) => e.t));
    const overlapsWithDead = overlaps(
      toIntervals(pool().events, (s) => (s === victim.name ? expiry : Number.POSITIVE_INFINITY)),
    ).filter(([a, b]) => a.shard === victim.name || b.shard === victim.name);
    expect(overlapsWithDead).toEqual([]);
    results.kill = {
      victim: victim.name,
      openReconciles: open.size,
      openSample: [...open.keys()].slice(0, 3),
      leaseExpiryAfterKillMs: expiry - killedAt,
      firstSuccessorStartAfterExpiryMs: first - expiry,
      settledAfterKillMs: Date.now() - killedAt,
    };
    console.log(`sharding: SIGKILL ${JSON.stringify(results.kill)}`);
  });

  it('a partitioned replica stops reconciling before its Lease expires and its successors start', async () => {
    const holder = await sharderHolder();
    const victim = pool().replicas.find(
      (r) => live.has(r.name) && r.name !== holder,
    ) as ShardProcess;
    const before = await owners();
    const theirs = new Set([...before].filter(([, s]) => s === victim.name).map(([key]) => key));
    await busy(victim);
    await victim.proxy.blackhole();
    const cutAt = Date.now();
    live.delete(victim.name);
    const openAtCut = openKeys(pool().events, victim.name).size;
    // A shard that went on working would reconcile its keys again: ask it to, all along.
    const pressure = setInterval(() => victim.send('resync'), 300);
    try {
      await settle(`${victim.name}'s objects moved to the others and reconciled`, before, cutAt);
    } finally {
      clearInterval(pressure);
    }
    expect(victim.child.exitCode).toBeNull(); // alive all along, only cut off
    expect(victim.child.signalCode).toBeNull();
    const expiry = await leaseExpiry(victim.name);
    const left = victim.notes.find((n) => n.member === false && Number(n.t) >= cutAt);
    expect(left, 'the partitioned shard noticed it could not renew').toBeDefined();
    const stoppedAt = Number(left?.t);
    expect(stoppedAt).toBeLessThan(expiry);
    const own = pool().events.filter((e) => e.shard === victim.name);
    expect(openKeys(own, victim.name).size).toBe(0);
    expect(own.filter((e) => e.t > stoppedAt)).toEqual([]);
    const successors = pool().events.filter(
      (e) => e.ev === 'start' && e.shard !== victim.name && theirs.has(e.key) && e.t >= cutAt,
    );
    expect(successors.length).toBeGreaterThan(0);
    const first = Math.min(...successors.map((e) => e.t));
    expect(first).toBeGreaterThan(stoppedAt);
    results.partition = {
      victim: victim.name,
      objects: theirs.size,
      openAtCut,
      reconcilesStartedWhileCut: own.filter((e) => e.ev === 'start' && e.t >= cutAt).length,
      stoppedAfterCutMs: stoppedAt - cutAt,
      leaseExpiryAfterCutMs: expiry - cutAt,
      firstSuccessorStartAfterStopMs: first - stoppedAt,
      settledAfterCutMs: Date.now() - cutAt,
    };
    console.log(`sharding: partition ${JSON.stringify(results.partition)}`);
  });

  it('every key was reconciled, never by two replicas at once, and ends with its one owner', async () => {
    const killed = (results.kill as { victim: string }).victim;
    const expiry = await leaseExpiry(killed);
    const intervals = toIntervals(pool().events, (s) =>
      s === killed ? expiry : Number.POSITIVE_INFINITY,
    );
    expect(overlaps(intervals)).toEqual([]);
    const lastStart = new Map<string, { shard: string; start: number }>();
    for (const i of intervals) {
      if (!i.open && (lastStart.get(i.key)?.start ?? -1) < i.start) lastStart.set(i.key, i);
    }
    expect(lastStart.size).toBe(OBJECTS);
    const expected = new HashRing([...live]);
    for (const cm of await list()) {
      const key = `${namespace}/${cm.metadata?.name}`;
      const shard = cm.metadata?.labels?.[label];
      expect(shard).toBe(expected.shardFor(shardKey(cm)));
      expect(lastStart.get(key)?.shard).toBe(shard);
    }
    Object.assign(results, {
      objects: OBJECTS,
      workersPerReplica: 64,
      reconcileMs: '200-400',
      lease: LEASE,
      reconciles: intervals.length,
      totalMs: Date.now() - started,
      loadavg: loadavg()
        .map((l) => l.toFixed(1))
        .join(' '),
      at: new Date().toISOString(),
    });
    console.log(`sharding: ${JSON.stringify(results)}`);
    const out = process.env.SHARDING_RESULTS;
    if (out) writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  });
}, 600_000);

/** `ctrlkit-shards` (the built bin) on the ring. */
function ringStatus(namespace: string) {
  const bin = fileURLToPath(new URL('../../bin/ctrlkit-shards.mjs', import.meta.url));
  const args = ['--kubeconfig', testKubeconfigPath(), '--ring', RING];
  args.push('--lease-namespace', namespace, '--namespace', namespace);
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
}
