//! One reconcile pass of an execution: begin, run each VM's current phase, schedule, cancel, end (Forklift's plan/migration.go).

import { type Clock, type Logger, noopLogger } from '@ctrlkit/core';
import type {
  Builder,
  Client,
  DestinationClient,
  DiskTransfer,
  Ensurer,
  GuestConversion,
  Inventory,
  Migrator,
} from './adapter.js';
import type { Migration } from './api/migration.js';
import { cutoverFor, isCanceled } from './api/migration.js';
import type { HookRef, Plan, Snapshot, Step, VMStatus } from './api/plan.js';
import { isWarm, migrationStatus } from './api/plan.js';
import type { ProviderType } from './api/provider.js';
import { nextPhase } from './base-migrator.js';
import { ConditionType, Reason } from './condition-types.js';
import { Category, conditionsOf, True } from './conditions.js';
import { formatTime, parseTime, timestamp } from './internal/time.js';
import { isDNS1123Subdomain } from './name-templates.js';
import { Phase, StepName, TRANSFER_COMPLETED } from './phases.js';
import { NO_REQ, POLL_REQ } from './requeue.js';
import { markSchedulerQueuedVMs, nextVM } from './scheduler.js';
import type { MigrationSettings } from './settings.js';
import {
  addError,
  findStep,
  markCompleted,
  markedCompleted,
  markedStarted,
  markReset,
  markStarted,
  markStartedStepsCompleted,
  reflectPipeline,
  reflectTasks,
  running,
} from './vm-status.js';

/** The outcome of a hook run. */
export type HookResult = { done: false } | { done: true; failed?: string };

/** Runs a VM's hook (a Job, upstream). Called each pass until it reports done. */
export interface HookRunner {
  run(plan: Plan, vm: VMStatus, hook: HookRef): Promise<HookResult>;
}

/** A VM phase change, reported for events and metrics. */
export interface PhaseTransition {
  vm: VMStatus;
  from: string;
  to: string;
}

/** Everything a pass needs. */
export interface MigrationRunnerContext {
  plan: Plan;
  /** The active Migration (its cancel and cutover lists); absent when only canceling. */
  migration?: Migration;
  inventory: Inventory;
  client: Client;
  builder: Builder;
  destination: DestinationClient;
  ensurer: Ensurer;
  /** Converts guests (virt-v2v); without one a VM that needs conversion fails at that step. */
  guestConversion?: GuestConversion;
  /** The source provider's type (vSphere's conversion step ends once virt-v2v copies). */
  sourceType?: ProviderType;
  migrator: Migrator;
  settings: MigrationSettings;
  clock: Clock;
  logger?: Logger;
  /** Every plan (from the cache) for the in-flight count across plans of the same source. */
  plans(): readonly Plan[];
  /** Runs hooks; without one a VM with a hook fails at the hook step. */
  hookRunner?: HookRunner;
  /** Called for every phase change of a VM. */
  onPhase?(transition: PhaseTransition): void;
}

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
    if (!(await migrator.executePhase(vm))) await this.#executePhase(vm);
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

  #step(vm: VMStatus): Step | undefined {
    const name = this.#c.migrator.step(vm);
    const step = findStep(vm, name);
    if (step === undefined) addError(vm, `Step '${name}' not found`);
    return step;
  }

  /** The step of the VM's phase, marked started and Running; undefined (an error on the VM) when missing. */
  #runningStep(vm: VMStatus): Step | undefined {
    const step = this.#step(vm);
    if (step !== undefined) {
      markStarted(step, this.#c.clock);
      step.phase = 'Running';
    }
    return step;
  }

  #next(vm: VMStatus): void {
    nextPhase(this.#c.migrator, vm, this.#c.clock);
  }

  async #executePhase(vm: VMStatus): Promise<void> {
    const { plan, clock, client } = this.#c;
    switch (vm.phase) {
      case Phase.Started: {
        const step = this.#runningStep(vm);
        if (step === undefined) return;
        markStarted(vm, clock);
        const problem = await this.#setNewName(vm);
        if (problem !== undefined) {
          addError(step, problem);
          return;
        }
        // Leftovers of an earlier attempt: its transfer and what it created.
        await client.cancelTransfer(vm);
        await this.#c.destination.cleanup(vm, { deleteVM: false });
        this.#next(vm);
        return;
      }
      case Phase.PreHook:
      case Phase.PostHook: {
        const step = this.#runningStep(vm);
        if (step === undefined) {
          vm.phase = Phase.Completed;
          return;
        }
        const hook = (vm.hooks ?? []).find((h) => h.step === vm.phase);
        if (hook === undefined || this.#c.hookRunner === undefined) {
          addError(
            step,
            hook === undefined ? `No hook for step ${vm.phase}.` : 'No hook runner configured.',
          );
          return;
        }
        const result = await this.#c.hookRunner.run(plan, vm, hook);
        if (!result.done) return;
        if (result.failed !== undefined) {
          addError(step, result.failed);
          return;
        }
        step.progress.completed = 1;
        markCompleted(step, clock);
        this.#next(vm);
        return;
      }
      case Phase.StorePowerState:
        vm.restorePowerState = await client.powerState(vm);
        this.#next(vm);
        return;
      case Phase.PowerOffSource:
        await client.powerOff(vm);
        this.#next(vm);
        return;
      case Phase.WaitForPowerOff:
        if (await client.poweredOff(vm)) this.#next(vm);
        return;
      case Phase.CreateDataVolumes: {
        const allocation = findStep(vm, StepName.DiskAllocation);
        if (allocation !== undefined) {
          // virt-v2v copies the disks: blank volumes for it to fill, no CDI import.
          const conversion = this.#guestConversion(vm, allocation);
          if (conversion === undefined) return;
          await conversion.allocateDisks(vm, allocation.tasks ?? (await this.#c.builder.tasks(vm)));
          this.#next(vm);
          return;
        }
        const disks = findStep(vm, StepName.DiskTransfer);
        await this.#c.ensurer.ensureDataVolumes(
          vm,
          disks?.tasks ?? (await this.#c.builder.tasks(vm)),
        );
        await client.startTransfer(vm, 0);
        this.#next(vm);
        return;
      }
      case Phase.AllocateDisks: {
        const step = this.#runningStep(vm);
        if (step === undefined) return;
        if (this.#c.destination.diskTransfers === undefined) {
          addError(step, `Phase [${vm.phase}] needs a destination that reports disk transfers.`);
          return;
        }
        if (await this.#updateTransfer(vm, step)) this.#next(vm);
        return;
      }
      case Phase.CreateGuestConversionPod: {
        const step = this.#runningStep(vm);
        if (step === undefined) return;
        const conversion = this.#guestConversion(vm, step);
        if (conversion === undefined) return;
        let ready: boolean;
        try {
          ready = await conversion.ensureConversionPod(vm);
        } catch (error) {
          // As upstream: a pod that cannot be made fails the step (and the VM), not the pass.
          addError(step, error instanceof Error ? error.message : String(error));
          return;
        }
        if (ready) this.#next(vm);
        return;
      }
      case Phase.ConvertGuest:
      case Phase.CopyDisksVirtV2V: {
        const step = this.#runningStep(vm);
        if (step === undefined) return;
        const conversion = this.#guestConversion(vm, step);
        if (conversion === undefined) return;
        await this.#updateConversion(vm, step, conversion);
        if (markedCompleted(step) && step.error === undefined) this.#next(vm);
        return;
      }
      case Phase.CopyDisks: {
        const step = this.#runningStep(vm);
        if (step === undefined) return;
        if (await this.#updateTransfer(vm, step)) {
          if (isWarm(plan)) this.#endPrecopy(vm);
          this.#next(vm);
        }
        return;
      }
      case Phase.CopyingPaused: {
        const cutover = this.#c.migration && cutoverFor(this.#c.migration, vm.id);
        if (cutover !== undefined && cutover <= clock.now()) {
          vm.phase = Phase.StorePowerState;
          const step = findStep(vm, StepName.DiskTransfer);
          if (step) {
            markCompleted(step, clock);
            step.phase = 'Completed';
          }
          return;
        }
        const at = parseTime(vm.warm?.nextPrecopyAt);
        if (Number.isNaN(at) || at <= clock.now()) this.#next(vm);
        return;
      }
      case Phase.CreateInitialSnapshot:
      case Phase.CreateSnapshot:
      case Phase.CreateFinalSnapshot: {
        const snapshot = await client.createSnapshot(vm);
        vm.warm ??= { successes: 0, failures: 0, consecutiveFailures: 0 };
        vm.warm.precopies ??= [];
        vm.warm.precopies.push({ start: timestamp(clock), snapshot });
        if (vm.phase === Phase.CreateInitialSnapshot) {
          this.#runningStep(vm);
          markStarted(vm, clock);
        }
        this.#next(vm);
        return;
      }
      case Phase.WaitForInitialSnapshot:
      case Phase.WaitForSnapshot:
      case Phase.WaitForFinalSnapshot: {
        const last = vm.warm?.precopies?.at(-1);
        if (last?.snapshot === undefined) {
          addError(vm, 'No snapshot to wait for.');
          return;
        }
        if (await client.checkSnapshotReady(vm, last.snapshot)) this.#next(vm);
        return;
      }
      case Phase.StoreInitialSnapshotDeltas:
      case Phase.StoreSnapshotDeltas:
      case Phase.WaitForPreviousSnapshotRemoval:
      case Phase.WaitForPenultimateSnapshotRemoval:
      case Phase.WaitForFinalSnapshotRemoval:
        this.#next(vm);
        return;
      case Phase.RemovePreviousSnapshot:
      case Phase.RemovePenultimateSnapshot:
      case Phase.RemoveFinalSnapshot: {
        const precopies = vm.warm?.precopies ?? [];
        const target = vm.phase === Phase.RemoveFinalSnapshot ? precopies.at(-1) : precopies.at(-2);
        if (target?.snapshot) await client.removeSnapshot(vm, target.snapshot);
        this.#next(vm);
        return;
      }
      case Phase.AddCheckpoint:
      case Phase.AddFinalCheckpoint: {
        const round = Math.max(0, (vm.warm?.precopies?.length ?? 1) - 1);
        await client.startTransfer(vm, round);
        if (vm.phase === Phase.AddCheckpoint) {
          const step = findStep(vm, StepName.DiskTransfer);
          if (step) this.#resetPrecopyTasks(vm, step);
          vm.phase = Phase.CopyDisks;
        } else {
          this.#next(vm);
        }
        return;
      }
      case Phase.Finalize: {
        const step = this.#runningStep(vm);
        if (step === undefined) return;
        if (await this.#updateTransfer(vm, step)) {
          this.#endPrecopy(vm);
          this.#next(vm);
        }
        return;
      }
      case Phase.CreateVM: {
        const step = this.#runningStep(vm);
        if (step === undefined) return;
        const target = vm.targetPowerState ?? plan.spec.targetPowerState ?? 'auto';
        const runningVM = target === 'on' || (target === 'auto' && vm.restorePowerState === 'On');
        await this.#c.ensurer.ensureVM(vm, { running: runningVM });
        step.progress.completed = step.progress.total;
        this.#next(vm);
        return;
      }
      case Phase.ConvertOpenstackSnapshot:
      case Phase.WaitForGuestReboots:
      case Phase.PreflightInspection: {
        const step = this.#step(vm);
        if (step)
          addError(
            step,
            `Phase [${vm.phase}] needs a guest conversion adapter, which is not configured.`,
          );
        return;
      }
      case Phase.Completed:
        markCompleted(vm, clock);
        return;
      default:
        addError(vm, `Phase [${vm.phase}] unknown`);
        vm.phase = Phase.Completed;
    }
  }

  /** The guest conversion adapter, or undefined after putting an error on `step`. */
  #guestConversion(vm: VMStatus, step: Step): GuestConversion | undefined {
    const conversion = this.#c.guestConversion;
    if (conversion === undefined) {
      addError(
        step,
        `Phase [${vm.phase}] needs a guest conversion adapter, which is not configured.`,
      );
    }
    return conversion;
  }

  /**
   * Reads the conversion pod (upstream's updateConversionProgress): Succeeded completes the
   * step and its tasks; Failed completes it with the pod's message; a missing pod is an
   * error; while it runs, the copy progress of each disk goes on the DiskTransferV2v tasks,
   * and on vSphere the first progress completes ImageConversion (virt-v2v is copying).
   */
  async #updateConversion(vm: VMStatus, step: Step, conversion: GuestConversion): Promise<void> {
    const { clock } = this.#c;
    const status = await conversion.conversionStatus(vm);
    switch (status.phase) {
      case 'Succeeded':
        step.progress.completed = step.progress.total;
        for (const task of step.tasks ?? []) {
          markStarted(task, clock);
          task.progress.completed = task.progress.total;
          task.phase = 'Completed';
          markCompleted(task, clock);
        }
        markCompleted(step, clock);
        return;
      case 'Failed':
        addError(
          step,
          status.message
            ? `Guest conversion failed: ${status.message}`
            : 'Guest conversion failed. See pod logs for details.',
        );
        markCompleted(step, clock);
        return;
      case 'NotFound':
        addError(step, 'Guest conversion pod not found');
        markCompleted(step, clock);
        return;
      default: {
        const copying = [...status.disks.values()].some((percent) => percent > 0);
        if (step.name === StepName.ImageConversion) {
          // On vSphere virt-v2v converts, then copies: the first progress ends the conversion.
          if (copying && this.#c.sourceType === 'vsphere') {
            step.progress.completed = step.progress.total;
            markCompleted(step, clock);
          }
          return;
        }
        if (step.name !== StepName.DiskTransferV2v) return;
        for (const [disk, percent] of status.disks) {
          const task = step.tasks?.[disk - 1];
          if (task === undefined) continue;
          markStarted(task, clock);
          task.progress.completed = Math.floor((task.progress.total * percent) / 100);
        }
        reflectTasks(step, clock);
      }
    }
  }

  /** The disks' transfer: the destination's importer status when it reports one, else the source's. */
  #transfers(vm: VMStatus): Promise<DiskTransfer[]> {
    const { destination, client } = this.#c;
    return destination.diskTransfers ? destination.diskTransfers(vm) : client.transferStatus(vm);
  }

  /** Copies the transfer's status into the step's tasks; true when every disk is done. */
  async #updateTransfer(vm: VMStatus, step: Step): Promise<boolean> {
    const { clock } = this.#c;
    const transfers = await this.#transfers(vm);
    for (const task of step.tasks ?? []) {
      const t = transfers.find((x) => x.disk === task.name);
      if (t === undefined) continue;
      switch (t.phase) {
        case 'Succeeded':
          markStarted(task, clock);
          task.progress.completed = task.progress.total;
          task.reason = TRANSFER_COMPLETED;
          task.phase = 'Completed';
          markCompleted(task, clock);
          break;
        case 'Pending':
        case 'ImportScheduled':
          task.phase = 'Pending';
          task.reason = t.phase === 'Pending' ? 'Transfer pending.' : 'Import scheduled.';
          break;
        case 'ImportInProgress':
          markStarted(task, clock);
          task.phase = 'Running';
          task.progress.completed = Math.floor(
            (t.completedMiB / Math.max(1, t.totalMiB)) * task.progress.total,
          );
          break;
        case 'Failed':
          markStarted(task, clock);
          addError(task, t.error ?? 'Transfer failed.');
          break;
      }
    }
    reflectTasks(step, clock);
    return step.error === undefined && markedCompleted(step);
  }

  #endPrecopy(vm: VMStatus): void {
    const { clock, settings } = this.#c;
    vm.warm ??= { successes: 0, failures: 0, consecutiveFailures: 0 };
    const warm = vm.warm;
    const last = warm.precopies?.at(-1);
    if (last !== undefined) last.end = timestamp(clock);
    warm.successes++;
    warm.consecutiveFailures = 0;
    warm.nextPrecopyAt = formatTime(clock.now() + settings.precopyIntervalMs);
  }

  #resetPrecopyTasks(vm: VMStatus, step: Step): void {
    delete step.completed;
    step.phase = 'Running';
    for (const task of step.tasks ?? []) {
      task.annotations = { ...task.annotations, Precopy: String(vm.warm?.precopies?.length ?? 0) };
      markReset(task);
      markStarted(task, this.#c.clock);
      task.progress.completed = 0;
      delete task.reason;
    }
  }

  /** Sets `newName`; returns a problem when an explicit targetName cannot be used. */
  async #setNewName(vm: VMStatus): Promise<string | undefined> {
    const ns = this.#c.plan.spec.targetNamespace;
    if (vm.targetName) {
      if (!isDNS1123Subdomain(vm.targetName)) {
        return `VM name '${vm.targetName}' does not meet DNS1123 protocol requirements`;
      }
      if (await this.#c.destination.vmExists(ns, vm.targetName)) {
        return `VM name '${vm.targetName}' already exists in the target namespace '${ns}'`;
      }
      vm.newName = vm.targetName;
      return undefined;
    }
    // A VM listed by id gets its name from the inventory (the destination names the VM after it).
    vm.name ??= (await this.#c.inventory.findVM(vm))?.name;
    const name = vm.name ?? '';
    if (!isDNS1123Subdomain(name)) {
      let candidate =
        toDNS1123(name) || `vm-${(vm.id ?? '').toLowerCase().replace(/[^a-z0-9-]/g, '')}`;
      if (await this.#c.destination.vmExists(ns, candidate))
        candidate = `${candidate.slice(0, 58)}-${randomSuffix(vm.id ?? name)}`;
      vm.newName = candidate;
    }
    return undefined;
  }
}

/** Lower-cases, turns runs of invalid characters into `-`, trims to 63 and strips `-` and `.` at both ends. */
export function toDNS1123(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .slice(0, 63)
    .replace(/^[-.]+|[-.]+$/g, '');
}

function randomSuffix(seed: string): string {
  let h = 0;
  for (const ch of seed) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h.toString(36).slice(0, 4).padStart(4, '0');
}
