// --shards-ring: three replicas of the built controller as processes (deploy/'s ServiceAccount,
// leader election on) share six Plans on the simulated source. Every Plan completes; no Plan
// is reconciled by two replicas at once (from each replica's debug log of its reconciles, with
// their start and end); a SIGKILLed replica's Plans move to the others once its shard Lease
// lapses (15 s), and they finish them. Migrations follow their Plan's shard.

import { type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { errorMessage } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { forkliftCrds } from '@ctrlkit/plan-migration';
import type { Migration, Plan } from '@ctrlkit/plan-migration/api';
import { PlanFixture } from '@ctrlkit/plan-migration/testing';
import { HashRing, shardKey, shardLabel } from '@ctrlkit/runtime/sharding';
import { afterAll, expect, it } from 'vitest';

const RING = 'plans';
const PLANS = 6;
const LABEL = shardLabel(RING);
/** The pod's namespace in deploy/, where its Role grants the Leases. */
const LEASE_NAMESPACE = 'ctrlkit-migration';

interface Replica {
  app: AppProcess;
  /** Its shard's name, from its start log. */
  shard: () => string | undefined;
}

/** One reconcile of a Plan by a replica, from its debug log. */
interface Reconcile {
  plan: string;
  shard: string;
  start: number;
  end: number;
}

const replicas: Replica[] = [];
afterAll(async () => {
  for (const replica of replicas) await replica.app.kill();
});

const parsed = (line: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined; // a line split across two chunks
  }
};

async function startReplica(): Promise<Replica> {
  const app = await startApp(appPackage('@ctrlkit/migration-controller', import.meta.url), {
    args: [
      '--leader-elect',
      `--leader-election-namespace=${LEASE_NAMESPACE}`,
      `--shards-ring=${RING}`,
      '--metrics-addr=0',
      '--healthz-addr=0',
      '--destination=configmap',
      '--log-level=debug',
    ],
  });
  const shard = () =>
    app.logs
      .map(parsed)
      .find((l) => l?.msg === 'starting migration controller' && typeof l.shard === 'string')
      ?.shard as string | undefined;
  const replica = { app, shard };
  replicas.push(replica);
  return replica;
}

/** Every replica's Plan reconciles, tagged with its shard. */
function reconciles(): Reconcile[] {
  return replicas.flatMap(({ app, shard }) =>
    app.logs
      .map(parsed)
      .filter((l) => l?.msg === 'plan reconciled')
      .map((l) => ({
        plan: String(l?.plan),
        shard: shard() ?? '',
        start: Number(l?.start),
        end: Number(l?.end),
      })),
  );
}

/** Pairs of reconciles of one Plan by two shards whose times overlap. */
function overlapping(log: readonly Reconcile[]): Array<[Reconcile, Reconcile]> {
  const overlaps: Array<[Reconcile, Reconcile]> = [];
  for (const [i, a] of log.entries()) {
    for (const b of log.slice(i + 1)) {
      if (a.plan === b.plan && a.shard !== b.shard && a.start < b.end && b.start < a.end) {
        overlaps.push([a, b]);
      }
    }
  }
  return overlaps;
}

it('three sharded replicas: every Plan completes, one replica at a time; a SIGKILLed one hands its Plans over', async () => {
  const kubeConfig = testKubeConfig();
  await installCRDs(kubeConfig, [...forkliftCrds]);
  const namespace = await createTestNamespace(kubeConfig, 'mc-shards-');
  const fixture = new PlanFixture({ client: kubeConfig, namespace });
  const storageClass = `sc-${namespace}`;
  await fixture.createStorageClass(storageClass);
  // Slow enough copies (2 VMs of 300 MiB at 15 MiB/s per plan) that a Plan still runs when
  // its replica is killed.
  await fixture.createProvidersAndMaps({
    source: {
      type: 'simulated',
      settings: { vms: '2', diskMiB: '300', copyRateMiBPerSecond: '15' },
    },
    storageClass,
  });
  const names = Array.from({ length: PLANS }, (_, i) => `plan-${i}`);
  for (const name of names) {
    // A target namespace each: the Plans migrate the same VMs.
    const target = await createTestNamespace(kubeConfig, `mc-shards-${name}-`);
    await fixture.createPlan(name, {
      targetNamespace: target,
      vms: [{ id: 'vm-0' }, { id: 'vm-1' }],
    });
  }
  for (let i = 0; i < 3; i++) await startReplica();
  const has = (p: Plan, type: string) =>
    (p.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
  const wait = <T>(what: string, check: () => Promise<T>, until: (v: T) => boolean) =>
    waitFor(what, check, { timeoutMs: 180_000, intervalMs: 250, until }).catch((error: unknown) => {
      const tails = replicas.map((r, i) => `replica ${i}:\n${r.app.logs.slice(-15).join('\n')}`);
      throw new Error(`${errorMessage(error)}\n${tails.join('\n')}`, { cause: error });
    });
  const shards = () => replicas.map((r) => r.shard());
  await wait(
    'every replica started with a shard',
    async () => shards(),
    (s) => s.every((name) => name !== undefined),
  );
  const live = new Set(shards() as string[]);
  // The ring settles: each Plan on the shard consistent hashing over the three picks.
  const ring = new HashRing([...live]);
  await wait(
    'every Plan Ready, on its shard of three',
    () => fixture.list<Plan>('Plan'),
    (plans) =>
      plans.length === PLANS &&
      plans.every(
        (p) => has(p, 'Ready') && p.metadata.labels?.[LABEL] === ring.shardFor(shardKey(p)),
      ),
  );
  for (const name of names) await fixture.create('Migration', `${name}-run`, { plan: { name } });
  // Migrations follow their Plan (the Plan controls them).
  await wait(
    "every Migration on its Plan's shard",
    async () => ({
      plans: await fixture.list<Plan>('Plan'),
      migrations: await fixture.list<Migration>('Migration'),
    }),
    ({ plans, migrations }) =>
      migrations.length === PLANS &&
      migrations.every((m) => {
        const plan = plans.find((p) => p.metadata.name === m.spec.plan?.name);
        const shard = m.metadata.labels?.[LABEL];
        return shard !== undefined && shard === plan?.metadata.labels?.[LABEL];
      }),
  );
  // Kill a replica while it runs a Plan (the sharder's leader or not: either way).
  const running = await wait(
    'a Plan executing',
    () => fixture.list<Plan>('Plan'),
    (plans) => plans.some((p) => has(p, 'Executing')),
  );
  const victimShard = running.find((p) => has(p, 'Executing'))?.metadata.labels?.[LABEL];
  const victim = replicas.find((r) => r.shard() === victimShard);
  expect(victim).toBeDefined();
  const theirs = running
    .filter((p) => p.metadata.labels?.[LABEL] === victimShard && !has(p, 'Succeeded'))
    .map((p) => `${namespace}/${p.metadata.name}`);
  await victim?.app.kill();
  const killedAt = Date.now();
  live.delete(victimShard ?? '');

  // Compact, so that a timeout says which Plan is behind, on which shard, and why.
  const summary = async () =>
    (await fixture.list<Plan>('Plan')).map((p) => ({
      name: p.metadata.name ?? '',
      shard: p.metadata.labels?.[LABEL] ?? '',
      conditions: (p.status?.conditions ?? [])
        .filter((c) => c.status === 'True')
        .map((c) => `${c.type}: ${c.message}`),
    }));
  await wait(
    `every Plan Succeeded on a live shard (${[...live].join(', ')})`,
    summary,
    (plans) =>
      plans.length === PLANS &&
      plans.every((p) => live.has(p.shard) && p.conditions.some((c) => c.startsWith('Succeeded'))),
  );
  const done = await fixture.list<Plan>('Plan');
  expect(done.map((p) => p.metadata.name).sort()).toEqual(names);
  const log = reconciles();
  expect(log.length).toBeGreaterThan(PLANS);
  expect(overlapping(log)).toEqual([]);
  // The killed replica's Plans were finished by the others, after it died.
  expect(theirs.length).toBeGreaterThan(0);
  for (const plan of theirs) {
    expect(log.some((r) => r.plan === plan && r.shard === victimShard)).toBe(true);
    expect(
      log.some((r) => r.plan === plan && live.has(r.shard) && r.start >= killedAt - 1_000),
    ).toBe(true);
  }

  for (const replica of replicas.filter((r) => r !== victim)) {
    // The RBAC of deploy/ sufficed: stop() fails on a request the apiserver refused.
    expect(await replica.app.stop()).toBe(0);
  }
  await victim?.app.stop();
  for (const replica of replicas) {
    expect(replica.app.logs.filter((l) => /forbidden/i.test(l))).toEqual([]);
  }
}, 400_000);
