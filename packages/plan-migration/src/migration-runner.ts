//! One reconcile pass of an execution: begin, run each VM's current phase, schedule, cancel, end (Forklift's plan/migration.go).

import { type Logger, noopLogger } from '@ctrlkit/core';
import { isCanceled } from './api/migration.js';
import type { Plan, Snapshot, VMStatus } from './api/plan.js';
import { migrationStatus } from './api/plan.js';
import { ConditionType, Reason } from './condition-types.js';
import { Category, conditionsOf, True } from './conditions.js';
import type { MigrationRunnerContext } from './migration-runner/context.js';
import { executePhase } from './migration-runner/execute-phase.js';
import { Phase } from './phases.js';
import { NO_REQ, POLL_REQ } from './requeue.js';
import { markSchedulerQueuedVMs, nextVM } from './scheduler.js';
import { omitEmptyVM } from './status-omitempty.js';
import {
  markCompleted,
  markedCompleted,
  markedStarted,
  markReset,
  markStarted,
  markStartedStepsCompleted,
  reflectPipeline,
  running,
} from './vm-status.js';

/** The active (last) snapshot, creating an empty history entry never. */
export function activeSnapshot(plan: Plan): Snapshot | undefined {
  const history = plan.status?.migration?.history ?? [];
  return history[history.length - 1];
}

/** Executes one pass of the plan's active migration. */
export class MigrationRunner {
  readonly #c: MigrationRunnerContext;
  readonly #log: Logger;

  constructor(context: MigrationRunnerContext) {
    this.#c = context;
    this.#log = context.logger ?? noopLogger;
  }

  /** Writes the destination reports it made during this runner's life, when it counts them. */
  get destinationWrites(): number {
    return (this.#c.destination as { writes?: number }).writes ?? 0;
  }

  /**
   * One pass: begin (once), execute running VMs, start VMs while the scheduler allows,
   * mark the rest Pending, end when all VMs completed. Returns the requeue delay in ms
   * ({@link POLL_REQ}, or {@link NO_REQ} once ended).
   */
  async run(): Promise<number> {
    const { plan, clock } = this.#c;
    await this.begin();
    const snapshot = activeSnapshot(plan);
    if (snapshot === undefined) return NO_REQ;
    const snap = conditionsOf(snapshot, clock);
    if (!snap.hasCondition(ConditionType.Executing)) {
      return snap.hasAnyCondition(ConditionType.Failed, ConditionType.Canceled) ? NO_REQ : POLL_REQ;
    }
    const vms = plan.status?.migration?.vms ?? [];
    for (const vm of vms.filter((v) => running(v))) await this.execute(vm);
    for (;;) {
      const vm = nextVM(plan, this.#c.plans(), this.#c.settings.maxInFlight);
      if (vm === undefined) {
        markSchedulerQueuedVMs(plan, this.#c.settings.maxInFlight, clock);
        break;
      }
      if ((await this.#c.inventory.findVM(vm)) === undefined) {
        conditionsOf(vm, clock).setCondition({
          type: ConditionType.Canceled,
          status: True,
          category: Category.Advisory,
          reason: Reason.NotFound,
          message: 'VM was not found in inventory.',
          durable: true,
        });
        continue;
      }
      await this.execute(vm);
      // A VM that neither started nor completed would be picked again forever.
      if (
        !markedStarted(vm) &&
        !markedCompleted(vm) &&
        !conditionsOf(vm, clock).hasCondition(ConditionType.Canceled)
      ) {
        markStarted(vm, clock);
      }
    }
    return this.end() ? NO_REQ : POLL_REQ;
  }

  /**
   * Starts the execution once: marks the migration started, sets the durable `Executing`,
   * ensures the target namespace, drops statuses of VMs no longer in the spec, and resets
   * every VM that is not Completed (or is Canceled or Failed). Succeeded VMs are kept.
   */
  async begin(): Promise<void> {
    const { plan, clock, migrator } = this.#c;
    const snapshot = activeSnapshot(plan);
    if (snapshot === undefined) return;
    const snap = conditionsOf(snapshot, clock);
    if (
      snap.hasAnyCondition(
        ConditionType.Executing,
        ConditionType.Succeeded,
        ConditionType.Failed,
        ConditionType.Canceled,
      )
    ) {
      return;
    }
    const status = migrationStatus(plan);
    markReset(status);
    markStarted(status, clock);
    snap.setCondition({
      type: ConditionType.Executing,
      status: True,
      category: Category.Advisory,
      message: 'The plan is EXECUTING.',
      durable: true,
    });
    await this.#c.destination.ensureNamespace(plan.spec.targetNamespace);
    const list: VMStatus[] = [];
    for (const vm of plan.spec.vms) {
      const vmStatus = migrator.status(vm);
      const cnd = conditionsOf(vmStatus, clock);
      if (
        vmStatus.phase !== Phase.Completed ||
        cnd.hasAnyCondition(ConditionType.Canceled, ConditionType.Failed)
      ) {
        // The spec's VM fields win over an earlier status (hooks, targetName may have changed).
        Object.assign(vmStatus, vm);
        migrator.reset(vmStatus, await migrator.pipeline(vm));
        this.#log.info({ vm: vm.id ?? vm.name }, 'pipeline reset');
      }
      omitEmptyVM(vmStatus);
      list.push(vmStatus);
    }
    status.vms = list;
    await migrator.begin();
    this.#log.info({ plan: plan.metadata.name }, 'migration started');
  }

  /** Runs the VM's current phase; phase errors go on its step so the other VMs go on. */
  async execute(vm: VMStatus): Promise<void> {
    const { clock, migration, migrator } = this.#c;
    const cnd = conditionsOf(vm, clock);
    cnd.deleteCondition(ConditionType.Pending);
    if (migration !== undefined && isCanceled(migration, vm)) {
      cnd.setCondition({
        type: ConditionType.Canceled,
        status: True,
        category: Category.Advisory,
        reason: Reason.UserRequested,
        message: 'The migration has been canceled.',
        durable: true,
      });
      this.#transition(vm, Phase.Completed);
      this.#log.info({ vm: vm.id }, 'migration canceled');
      return;
    }
    const from = vm.phase;
    if (!(await migrator.executePhase(vm))) await executePhase(this.#c, vm);
    if (vm.phase !== from) this.#c.onPhase?.({ vm, from, to: vm.phase });
    reflectPipeline(vm, clock);
    if (vm.phase === Phase.Completed && vm.error === undefined) {
      cnd.setCondition({
        type: ConditionType.Succeeded,
        status: True,
        category: Category.Advisory,
        message: 'The VM migration has SUCCEEDED.',
        durable: true,
      });
      migrator.complete(vm);
      await this.#c.destination.cleanup(vm, { deleteVM: false });
    } else if (vm.error !== undefined) {
      this.#transition(vm, Phase.Completed);
      cnd.setCondition({
        type: ConditionType.Failed,
        status: True,
        category: Category.Advisory,
        message: 'The VM migration has FAILED.',
        durable: true,
      });
      markCompleted(vm, clock);
      migrator.complete(vm);
    }
  }

  /**
   * Cleans up after every Canceled VM not yet completed: stops its transfer, deletes what
   * was created for it (and the VM with `deleteVmOnFailMigration`), powers the source back
   * on if it was on, and marks the VM and its started steps completed.
   */
  async cancel(): Promise<void> {
    const { plan, clock, client, destination, migrator } = this.#c;
    for (const vm of plan.status?.migration?.vms ?? []) {
      if (!conditionsOf(vm, clock).hasCondition(ConditionType.Canceled) || markedCompleted(vm))
        continue;
      const deleteVM = vm.deleteVmOnFailMigration ?? plan.spec.deleteVmOnFailMigration ?? false;
      try {
        await client.cancelTransfer(vm);
        await destination.cleanup(vm, { deleteVM });
      } catch (error) {
        this.#log.error({ vm: vm.id, err: error }, 'cleanup after canceled VM migration failed');
      }
      if (vm.restorePowerState === 'On') {
        try {
          await client.powerOn(vm);
        } catch (error) {
          this.#log.error(
            { vm: vm.id, err: error },
            'could not restore the power state of the source VM',
          );
        }
      }
      migrator.complete(vm);
      markCompleted(vm, clock);
      markStartedStepsCompleted(vm, clock);
    }
  }

  /** Best-effort cleanup of every VM of an archived plan (its VMs and their disks are kept). */
  async archive(): Promise<void> {
    for (const vm of this.#c.plan.status?.migration?.vms ?? []) {
      try {
        await this.#c.destination.cleanup(vm, { deleteVM: false });
      } catch (error) {
        this.#log.error({ vm: vm.id, err: error }, 'could not clean up VM while archiving plan');
      }
      this.#c.migrator.complete(vm);
    }
  }

  /**
   * Ends the execution once every VM completed: `Failed` if any VM failed, else
   * `Succeeded` if any succeeded, else `Canceled`. Returns whether it ended.
   */
  end(): boolean {
    const { plan, clock } = this.#c;
    let failed = 0;
    let succeeded = 0;
    for (const vm of plan.status?.migration?.vms ?? []) {
      if (!markedCompleted(vm)) return false;
      const cnd = conditionsOf(vm, clock);
      if (cnd.hasCondition(ConditionType.Failed)) failed++;
      if (cnd.hasCondition(ConditionType.Succeeded)) succeeded++;
    }
    const status = migrationStatus(plan);
    markCompleted(status, clock);
    const snapshot = activeSnapshot(plan);
    if (snapshot === undefined) return true;
    const snap = conditionsOf(snapshot, clock);
    snap.deleteCondition(ConditionType.Executing);
    const [type, message] =
      failed > 0
        ? [ConditionType.Failed, 'The plan execution has FAILED.']
        : succeeded > 0
          ? [ConditionType.Succeeded, 'The plan execution has SUCCEEDED.']
          : [ConditionType.Canceled, 'The plan execution has been CANCELED.'];
    snap.setCondition({ type, status: True, category: Category.Advisory, message, durable: true });
    this.#log.info({ plan: plan.metadata.name, result: type }, 'migration ended');
    return true;
  }

  #transition(vm: VMStatus, to: string): void {
    vm.phase = to;
  }
}
