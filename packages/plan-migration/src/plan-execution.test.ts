import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { conditionsOf } from './conditions.js';
import { failExecutingMigrationOnBlocker, pendingMigrations } from './plan-execution.js';
import { FAST_REQ, NO_REQ, POLL_REQ, SLOW_REQ } from './requeue.js';
import { PlanHarness, ScriptedHookRunner } from './testing.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const types = (h: { conditions?: Array<{ type: string; status: string }> }) =>
  (h.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type);

describe('plan execution', () => {
  it('requeue constants: NoReQ 0, PollReQ 3 s, FastReQ 500 ms, SlowReQ 3 s', () => {
    expect([NO_REQ, POLL_REQ, FAST_REQ, SLOW_REQ]).toEqual([0, 3000, 500, 3000]);
  });

  it('a ready plan without a Migration is Ready and does not execute', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0) });
    expect(await h.reconcile()).toBe(NO_REQ);
    expect(h.planConditions()).toEqual(['Ready']);
    expect(h.plan.status?.migration).toBeUndefined();
  });

  it('a Migration runs every VM through the cold pipeline to Succeeded', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0), vms: 3, diskMiB: 500 });
    h.addMigration();
    expect(await h.reconcile()).toBe(POLL_REQ);
    expect(h.planConditions()).toContain('Executing');
    await h.runToEnd();
    expect(h.planConditions()).toEqual(expect.arrayContaining(['Ready', 'Succeeded']));
    expect(h.planConditions()).not.toContain('Executing');
    for (const id of ['vm-0', 'vm-1', 'vm-2']) {
      const vm = h.vm(id);
      expect(vm.phase).toBe('Completed');
      expect(types(vm)).toEqual(['Succeeded']);
      expect(vm.pipeline.every((s) => s.completed !== undefined)).toBe(true);
      expect(vm.pipeline.find((s) => s.name === 'DiskTransfer')?.progress).toEqual({
        completed: 500,
        total: 500,
      });
      expect(vm.restorePowerState).toBe('On');
    }
    expect(
      h.destination
        .list('VirtualMachine')
        .map((o) => o.name)
        .sort(),
    ).toEqual(['vm-0', 'vm-1', 'vm-2']);
    expect(h.destination.list('VirtualMachine').every((o) => o.running)).toBe(true);
    expect(h.plan.status?.migration?.completed).toBeDefined();
  });

  it('disk copy progress advances with the clock (ImportInProgress = pct x total)', async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 1, diskMiB: 1000, copyRateMiBPerSecond: 100 });
    h.addMigration();
    while (h.plan.status?.migration?.vms?.[0]?.phase !== 'CopyDisks') await h.reconcile();
    clock.step(2_500);
    await h.reconcile();
    const step = h.vm('vm-0').pipeline.find((s) => s.name === 'DiskTransfer');
    expect(step?.progress.completed).toBe(250);
    expect(step?.tasks?.[0]).toMatchObject({
      phase: 'Running',
      progress: { completed: 250, total: 1000 },
    });
    clock.step(10_000);
    await h.reconcile();
    expect(step?.tasks?.[0]).toMatchObject({ phase: 'Completed', reason: 'Transfer completed.' });
  });

  it('per-VM error isolation: a failed disk copy fails only its VM, the plan ends Failed', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0), vms: 3 });
    h.source.failDiskCopy('vm-1', 'disk-0', 'importer restart limit exceeded', 300);
    h.addMigration();
    await h.runToEnd();
    expect(types(h.vm('vm-1'))).toEqual(['Failed']);
    expect(h.vm('vm-1').error).toEqual({
      phase: 'CopyDisks',
      reasons: ['importer restart limit exceeded'],
    });
    expect(types(h.vm('vm-0'))).toEqual(['Succeeded']);
    expect(types(h.vm('vm-2'))).toEqual(['Succeeded']);
    expect(h.planConditions()).toContain('Failed');
  });

  it('a second Migration re-runs only the failed VM (begin/Reset keeps Succeeded VMs)', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0), vms: 3 });
    h.source.failDiskCopy('vm-1', 'disk-0', 'boom', 0);
    h.addMigration();
    await h.runToEnd();
    const before = structuredClone(h.vm('vm-0'));
    h.source.clearFailures('vm-1');
    const starts = h.source.calls.get('startTransfer');
    h.addMigration();
    await h.runToEnd();
    expect(h.planConditions()).toContain('Succeeded');
    expect(types(h.vm('vm-1'))).toEqual(['Succeeded']);
    expect(h.vm('vm-0')).toEqual(before);
    expect(h.source.calls.get('startTransfer')).toBe((starts ?? 0) + 1);
    expect(h.plan.status?.migration?.history).toHaveLength(2);
  });

  it('cancel: a VM in Migration.spec.cancel ends Canceled (UserRequested), is cleaned up, source powered back on', async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 2, diskMiB: 10_000 });
    const m = h.addMigration();
    while (h.plan.status?.migration?.vms?.[1]?.phase !== 'CopyDisks' && (await h.reconcile()) !== 0)
      clock.step(100);
    await h.reconcile();
    expect(h.destination.list('DataVolume').some((o) => o.vmID === 'vm-1')).toBe(true);
    m.spec.cancel = [{ id: 'vm-1' }];
    await h.runToEnd();
    const vm = h.vm('vm-1');
    expect(types(vm)).toEqual(['Canceled']);
    expect(vm.conditions?.find((c) => c.type === 'Canceled')?.reason).toBe('UserRequested');
    expect(vm.completed).toBeDefined();
    expect(h.destination.list('DataVolume').some((o) => o.vmID === 'vm-1')).toBe(false);
    expect(await h.source.powerState({ id: 'vm-1' })).toBe('On');
    expect(types(h.vm('vm-0'))).toEqual(['Succeeded']);
    expect(h.planConditions()).toContain('Succeeded');
  });

  it('cancel refs are matched only by non-empty id', async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 1 });
    h.addMigration({ cancel: [{ name: 'vm-0' }] });
    await h.runToEnd();
    expect(types(h.vm('vm-0'))).toEqual(['Succeeded']);
  });

  it('a snapshot whose network map was replaced (other UID) is Canceled (Modified) mid-run', async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 2, diskMiB: 10_000 });
    h.addMigration();
    await h.reconcile();
    clock.step(1000);
    await h.reconcile();
    const net = h.references.networkMap;
    if (net) net.metadata.uid = 'uid-net-2';
    expect(await h.reconcile()).toBe(NO_REQ);
    const snapshot = h.plan.status?.migration?.history?.[0];
    expect(snapshot?.conditions?.find((c) => c.type === 'Canceled')?.reason).toBe('Modified');
    expect(h.planConditions()).toContain('Canceled');
    expect(h.planConditions()).not.toContain('Executing');
    for (const id of ['vm-0', 'vm-1']) {
      expect(types(h.vm(id))).toEqual(['Canceled']);
      expect(h.vm(id).completed).toBeDefined();
    }
  });

  it('a deleted Migration cancels its snapshot (Deleted)', async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 1, diskMiB: 10_000 });
    h.addMigration();
    await h.reconcile();
    h.migrations.splice(0, 1);
    await h.reconcile();
    expect(
      h.plan.status?.migration?.history?.[0]?.conditions?.find((c) => c.type === 'Canceled')
        ?.reason,
    ).toBe('Deleted');
    expect(types(h.vm('vm-0'))).toEqual(['Canceled']);
  });

  it('pending Migrations are taken by creation time, then ns/name; more pending requeues fast', async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 1, diskMiB: 1 });
    const a = h.addMigration();
    const b = h.addMigration();
    a.metadata.creationTimestamp = new Date(5000).toISOString();
    b.metadata.creationTimestamp = new Date(1000).toISOString();
    expect(pendingMigrations(h.plan, h.migrations).map((m) => m.metadata.name)).toEqual([
      'm2',
      'm1',
    ]);
    let reQ = 0;
    for (let i = 0; i < 50 && reQ !== FAST_REQ; i++) {
      reQ = await h.reconcile();
      clock.step(1000);
    }
    expect(reQ).toBe(FAST_REQ);
    expect(h.plan.status?.migration?.history?.[0]?.migration.name).toBe('m2');
  });

  it('an invalid plan gets blockers and never executes', async () => {
    const h = new PlanHarness({ clock: new FakeClock(T0), vms: 2 });
    h.plan.spec.vms.push({ id: 'missing' });
    h.addMigration();
    expect(await h.reconcile()).toBe(SLOW_REQ);
    expect(h.planConditions()).toContain('VMNotFound');
    expect(h.planConditions()).not.toContain('Ready');
    expect(h.plan.status?.migration).toBeUndefined();
  });

  it('hooks: PreHook and PostHook run through the hook runner; a failing hook fails the VM', async () => {
    const hooks = new ScriptedHookRunner()
      .script('vm-0', 'PreHook', { passes: 2 })
      .script('vm-1', 'PostHook', { failed: 'Retry limit exceeded.' });
    const h = new PlanHarness({
      clock: new FakeClock(T0),
      vms: 2,
      hookRunner: hooks,
      vm: (vm) => ({
        ...vm,
        hooks: [
          { step: 'PreHook', hook: { name: 'h' } },
          { step: 'PostHook', hook: { name: 'h' } },
        ],
      }),
    });
    h.references.hook = () => ({
      metadata: { name: 'h', namespace: 'ns' },
      spec: { image: 'x' },
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            category: 'Required',
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
      },
    });
    h.addMigration();
    await h.runToEnd();
    expect(hooks.runs.filter((r) => r === 'vm-0/PreHook')).toHaveLength(3);
    expect(types(h.vm('vm-0'))).toEqual(['Succeeded']);
    expect(types(h.vm('vm-1'))).toEqual(['Failed']);
    expect(h.vm('vm-1').error).toEqual({ phase: 'PostHook', reasons: ['Retry limit exceeded.'] });
  });

  it('warm: precopies repeat every interval until cutover, then the VM cuts over', async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({
      clock,
      vms: 1,
      diskMiB: 100,
      warm: true,
      settings: { precopyIntervalMs: 10_000 },
    });
    const m = h.addMigration();
    for (let i = 0; i < 60; i++) {
      await h.reconcile();
      clock.step(1000);
    }
    const vm = h.vm('vm-0');
    expect(vm.phase).not.toBe('Completed');
    expect(vm.warm?.successes).toBeGreaterThanOrEqual(3);
    expect(vm.warm?.precopies?.length).toBeGreaterThanOrEqual(3);
    m.spec.cutover = new Date(clock.now()).toISOString();
    await h.runToEnd();
    expect(types(h.vm('vm-0'))).toEqual(['Succeeded']);
    expect(await h.source.poweredOff({ id: 'vm-0' })).toBe(true);
    expect(h.vm('vm-0').pipeline.map((s) => s.name)).toEqual([
      'Initialize',
      'DiskTransfer',
      'Cutover',
      'VirtualMachineCreation',
    ]);
  });

  it('warm cutover: a per-VM cutover overrides the global one', async () => {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({
      clock,
      vms: 2,
      diskMiB: 100,
      warm: true,
      settings: { precopyIntervalMs: 5_000 },
    });
    const far = new Date(T0 + 3_600_000).toISOString();
    h.addMigration({
      cutover: far,
      vmCutover: [{ id: 'vm-1', cutover: new Date(T0).toISOString() }],
    });
    for (let i = 0; i < 40; i++) {
      await h.reconcile();
      clock.step(1000);
    }
    expect(types(h.vm('vm-1'))).toEqual(['Succeeded']);
    expect(h.vm('vm-0').phase).not.toBe('Completed');
  });
});

describe('failExecutingMigrationOnBlocker', () => {
  async function executing() {
    const clock = new FakeClock(T0);
    const h = new PlanHarness({ clock, vms: 2, diskMiB: 100_000 });
    h.addMigration();
    await h.reconcile();
    clock.step(1000);
    await h.reconcile();
    return { clock, h };
  }
  const blocker = (h: PlanHarness) =>
    conditionsOf(h.plan.status ?? {}, h.clock).setCondition({
      type: 'SourceProviderNotReady',
      status: 'True',
      category: 'Critical',
      message: 'The source provider does not have the Ready condition.',
    });

  it('is a no-op within the grace period, then fails snapshot, plan and unfinished VMs with the reason', async () => {
    const { clock, h } = await executing();
    blocker(h);
    expect(failExecutingMigrationOnBlocker(h.plan, clock, 300_000)).toBe(false);
    clock.step(300_000);
    expect(failExecutingMigrationOnBlocker(h.plan, clock, 300_000)).toBe(true);
    const msg =
      'The migration has FAILED due to a validation blocker: The source provider does not have the Ready condition.';
    expect(h.plan.status?.conditions?.find((c) => c.type === 'Failed')?.message).toBe(msg);
    expect(types(h.plan.status?.migration?.history?.[0] ?? {})).toEqual(['Failed']);
    for (const id of ['vm-0', 'vm-1']) {
      expect(h.vm(id).phase).toBe('Completed');
      expect(h.vm(id).error?.reasons).toEqual([msg]);
      expect(types(h.vm(id))).toEqual(['Failed']);
    }
  });

  it('skips Succeeded VMs and is a no-op without Executing', async () => {
    const { clock, h } = await executing();
    conditionsOf(h.vm('vm-0'), clock).setCondition({
      type: 'Succeeded',
      status: 'True',
      category: 'Advisory',
      durable: true,
    });
    blocker(h);
    clock.step(600_000);
    expect(failExecutingMigrationOnBlocker(h.plan, clock, 300_000)).toBe(true);
    expect(types(h.vm('vm-0'))).toEqual(['Succeeded']);
    expect(failExecutingMigrationOnBlocker(h.plan, clock, 300_000)).toBe(false);
  });

  it('ignores ValidatingVDDK (not a blocker) and uses type/category/reason without a message', async () => {
    const { clock, h } = await executing();
    const cnd = conditionsOf(h.plan.status ?? {}, clock);
    cnd.setCondition({ type: 'ValidatingVDDK', status: 'True', category: 'Advisory' });
    clock.step(600_000);
    expect(failExecutingMigrationOnBlocker(h.plan, clock, 300_000)).toBe(false);
    cnd.setCondition({ type: 'X', status: 'True', category: 'Error', reason: 'R' });
    clock.step(600_000);
    expect(failExecutingMigrationOnBlocker(h.plan, clock, 300_000)).toBe(true);
    expect(h.plan.status?.conditions?.find((c) => c.type === 'Failed')?.message).toContain(
      'X (category=Error, reason=R)',
    );
  });

  it('during a reconcile, a blocker older than the grace period fails the run', async () => {
    const { clock, h } = await executing();
    const src = h.references.source;
    if (src?.status) src.status.conditions = [];
    expect(await h.reconcile()).toBe(SLOW_REQ);
    clock.step(300_000);
    await h.reconcile();
    expect(h.planConditions()).toContain('Failed');
    expect(h.planConditions()).not.toContain('Executing');
  });
});
