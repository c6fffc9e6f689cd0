import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { markSchedulerQueuedVMs, nextVM, schedulerQueuedMessage } from './scheduler.js';
import { MAX_VM_INFLIGHT } from './settings.js';
import { PlanHarness } from './testing.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const pending = (h: PlanHarness) =>
  (h.plan.status?.migration?.vms ?? []).filter((v) =>
    (v.conditions ?? []).some((c) => c.type === 'Pending'),
  ).length;
const started = (h: PlanHarness) =>
  (h.plan.status?.migration?.vms ?? []).filter((v) => v.started).length;

describe('scheduler', () => {
  it('MAX_VM_INFLIGHT is 20', () => {
    expect(MAX_VM_INFLIGHT).toBe(20);
  });

  it('TestMarkSchedulerQueuedVMs: VMs over the in-flight limit get a durable Pending, the plan a Ready count', async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 25, diskMiB: 100_000 });
    h.addMigration();
    await h.reconcile();
    expect(started(h)).toBe(20);
    expect(pending(h)).toBe(5);
    const vm = h.plan.status?.migration?.vms?.[24];
    expect(vm?.conditions?.find((c) => c.type === 'Pending')).toMatchObject({
      category: 'Advisory',
      durable: true,
      message: schedulerQueuedMessage(20),
    });
    expect(h.plan.status?.conditions?.find((c) => c.type === 'Ready')?.message).toBe(
      '5 VM(s) waiting to start migration (in-flight limit: 20).',
    );
  });

  it('execute clears Pending once a queued VM starts', async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 3, diskMiB: 100, settings: { maxInFlight: 1 } });
    h.addMigration();
    await h.reconcile();
    expect(pending(h)).toBe(2);
    await h.runToEnd();
    expect(pending(h)).toBe(0);
    expect(h.planConditions()).toContain('Succeeded');
  });

  it('counts running VMs of other Executing plans of the same source provider', async () => {
    const clock = new FakeClock(T0);
    const a = new PlanHarness({ clock, vms: 2, diskMiB: 100_000, settings: { maxInFlight: 3 } });
    a.addMigration();
    await a.reconcile();
    const b = new PlanHarness({ clock, vms: 3, diskMiB: 100_000, settings: { maxInFlight: 3 } });
    b.plan.metadata.uid = 'uid-plan-b';
    b.otherPlans.push(a.plan);
    b.addMigration();
    await b.reconcile();
    expect(started(b)).toBe(1);
    expect(pending(b)).toBe(2);
    // Another source provider does not count.
    a.plan.spec.provider.source.name = 'other';
    await b.reconcile();
    expect(started(b)).toBe(3);
  });

  it('nextVM skips Canceled, started and completed VMs; markSchedulerQueuedVMs skips them too', () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 1 });
    h.plan.status = {
      migration: {
        history: [],
        vms: [
          {
            id: 'a',
            phase: 'Started',
            pipeline: [],
            conditions: [
              { type: 'Canceled', status: 'True', category: 'Advisory', lastTransitionTime: 'x' },
            ],
          },
          { id: 'b', phase: 'Started', pipeline: [], started: 'x' },
          { id: 'c', phase: 'Started', pipeline: [] },
        ],
      },
    };
    expect(nextVM(h.plan, [], 20)?.id).toBe('c');
    expect(markSchedulerQueuedVMs(h.plan, 20, clock)).toBe(1);
  });
});
