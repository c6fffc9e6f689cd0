import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { conditionsOf } from './conditions.js';
import { notReconciled } from './plan-reconcile.js';
import { NO_REQ, SLOW_REQ } from './requeue.js';
import { PlanHarness } from './testing.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('reconcilePlan', () => {
  it('sets observedGeneration and writes the status', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0) });
    h.plan.metadata.generation = 4;
    await h.reconcile();
    expect(h.plan.status?.observedGeneration).toBe(4);
    expect(h.statusWrites).toBe(1);
  });

  it('postpones while a provider, map or hook is not reconciled', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0) });
    h.dependencies.push({ metadata: { generation: 2 }, status: { observedGeneration: 1 } });
    expect(notReconciled(h.dependencies[0] ?? { metadata: {} })).toBe(true);
    expect(await h.reconcile()).toBe(SLOW_REQ);
    expect(h.plan.status?.conditions ?? []).toEqual([]);
    expect(h.statusWrites).toBe(0);
  });

  it('skips a Succeeded plan that is not archived', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0), vms: 1, diskMiB: 10 });
    h.addMigration();
    await h.runToEnd();
    const writes = h.statusWrites;
    expect(await h.reconcile()).toBe(NO_REQ);
    expect(h.statusWrites).toBe(writes);
  });

  it('archived: best-effort cleanup, Archived (Advisory, UserRequested), no Ready, then skipped', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0), vms: 1, diskMiB: 10 });
    h.addMigration();
    await h.runToEnd();
    h.plan.spec.archived = true;
    expect(await h.reconcile()).toBe(NO_REQ);
    expect(h.plan.status?.conditions?.find((c) => c.type === 'Archived')).toMatchObject({
      category: 'Advisory',
      reason: 'UserRequested',
      message: 'The migration plan has been archived.',
    });
    expect(conditionsOf(h.plan.status ?? {}, h.clock).isReady()).toBe(false);
    expect(h.destination.list('VirtualMachine')).toHaveLength(1);
    const writes = h.statusWrites;
    await h.reconcile();
    expect(h.statusWrites).toBe(writes);
  });
});
