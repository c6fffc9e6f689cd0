//! The shared per-VM strategy: cold and warm itineraries, steps, pipeline and reset (Forklift's migrator/base).

import type { Clock } from '@ctrlkit/core';
import type { Builder, Inventory, InventoryVM, Migrator } from './adapter.js';
import type { Plan, PlanVM, Step, VMStatus } from './api/plan.js';
import { isWarm } from './api/plan.js';
import type { ProviderType } from './api/provider.js';
import { ConditionType } from './condition-types.js';
import { conditionsOf } from './conditions.js';
import { Itinerary, type ItineraryStep } from './itinerary.js';
import { Phase, StepName } from './phases.js';
import type { MigrationSettings } from './settings.js';
import { addError, findStep, findVM, markCompleted, markReset, markStarted } from './vm-status.js';

/** Itinerary predicate flags. */
export type Flag =
  | 'HasPreHook'
  | 'HasPostHook'
  | 'RequiresConversion'
  | 'CDIDiskCopy'
  | 'VirtV2vDiskCopy'
  | 'OpenstackImageMigration'
  | 'VSphere'
  | 'RunInspection'
  | 'WindowsWaitForGuestReboot'
  | 'WaitForFinalSnapshotConsolidation';

const step = (name: string, ...all: Flag[]): ItineraryStep<Flag> =>
  all.length ? { name, all } : { name };

/** The cold itinerary. */
export const COLD_ITINERARY: readonly ItineraryStep<Flag>[] = [
  step(Phase.Started),
  step(Phase.PreHook, 'HasPreHook'),
  step(Phase.StorePowerState),
  step(Phase.PowerOffSource),
  step(Phase.WaitForPowerOff),
  step(Phase.CreateDataVolumes),
  step(Phase.CopyDisks, 'CDIDiskCopy'),
  step(Phase.AllocateDisks, 'VirtV2vDiskCopy'),
  step(Phase.CreateGuestConversionPod, 'RequiresConversion'),
  step(Phase.ConvertGuest, 'RequiresConversion'),
  step(Phase.CopyDisksVirtV2V, 'RequiresConversion', 'VirtV2vDiskCopy'),
  step(Phase.ConvertOpenstackSnapshot, 'OpenstackImageMigration'),
  step(Phase.CreateVM),
  step(Phase.WaitForGuestReboots, 'WindowsWaitForGuestReboot'),
  step(Phase.PostHook, 'HasPostHook'),
  step(Phase.Completed),
];

/** The warm itinerary: start, the precopy loop (AddCheckpoint goes back to CopyDisks), cutover. */
export const WARM_ITINERARY: readonly ItineraryStep<Flag>[] = [
  step(Phase.Started),
  step(Phase.PreHook, 'HasPreHook'),
  step(Phase.CreateInitialSnapshot),
  step(Phase.WaitForInitialSnapshot),
  step(Phase.StoreInitialSnapshotDeltas, 'VSphere'),
  step(Phase.PreflightInspection, 'RunInspection'),
  step(Phase.CreateDataVolumes),
  step(Phase.CopyDisks),
  step(Phase.CopyingPaused),
  step(Phase.RemovePreviousSnapshot, 'VSphere'),
  step(Phase.WaitForPreviousSnapshotRemoval, 'VSphere'),
  step(Phase.CreateSnapshot),
  step(Phase.WaitForSnapshot),
  step(Phase.StoreSnapshotDeltas, 'VSphere'),
  step(Phase.AddCheckpoint),
  step(Phase.StorePowerState),
  step(Phase.PowerOffSource),
  step(Phase.WaitForPowerOff),
  step(Phase.RemovePenultimateSnapshot, 'VSphere'),
  step(Phase.WaitForPenultimateSnapshotRemoval, 'VSphere'),
  step(Phase.CreateFinalSnapshot),
  step(Phase.WaitForFinalSnapshot),
  step(Phase.AddFinalCheckpoint),
  step(Phase.Finalize),
  step(Phase.RemoveFinalSnapshot, 'VSphere'),
  step(Phase.CreateGuestConversionPod, 'RequiresConversion'),
  step(Phase.ConvertGuest, 'RequiresConversion'),
  step(Phase.CreateVM),
  step(Phase.WaitForGuestReboots, 'WindowsWaitForGuestReboot'),
  step(Phase.PostHook, 'HasPostHook'),
  step(Phase.WaitForFinalSnapshotRemoval, 'VSphere', 'WaitForFinalSnapshotConsolidation'),
  step(Phase.Completed),
];

/**
 * Phases no source or destination of this package performs yet: waiting for a Windows
 * guest's reboots on the destination, the warm preflight inspection, and converting an
 * OpenStack snapshot. By default they are left off every itinerary (their predicates
 * would otherwise put a step there that can only fail).
 */
export const UNSUPPORTED_PHASES: ReadonlySet<string> = new Set([
  Phase.WaitForGuestReboots,
  Phase.PreflightInspection,
  Phase.ConvertOpenstackSnapshot,
]);

/** Source types whose guests virt-v2v converts. */
const CONVERSION_SOURCES: ReadonlySet<ProviderType> = new Set(['vsphere', 'ova', 'hyperv', 'ec2']);

/** Options of {@link BaseMigrator}. */
export interface BaseMigratorOptions {
  plan: Plan;
  /** The source provider's type. */
  sourceType: ProviderType;
  builder: Builder;
  clock: Clock;
  settings: MigrationSettings;
  /** Inventory of the plan's VMs by id (guest OS, shared disks): see `inventoryById`. */
  inventory: ReadonlyMap<string, InventoryVM>;
  /**
   * Phases left off the itinerary whatever their predicates say, because nothing here can
   * perform them. Default `UNSUPPORTED_PHASES`; an empty set gives Forklift's
   * itineraries as they are.
   */
  unsupportedPhases?: ReadonlySet<string>;
  /** Skip guest conversion (`spec.skipGuestConversion`). Default false. */
  skipGuestConversion?: boolean;
  /** Run the warm preflight inspection. Default false. */
  runPreflightInspection?: boolean;
  /** The destination is the cluster the controller runs in. Default true. */
  destinationIsHost?: boolean;
}

/** The itinerary, steps and pipeline every provider but live OpenShift shares. */
export class BaseMigrator implements Migrator {
  readonly #o: BaseMigratorOptions;

  constructor(options: BaseMigratorOptions) {
    this.#o = options;
  }

  async begin(): Promise<void> {}

  complete(_vm: VMStatus): void {}

  status(vm: PlanVM): VMStatus {
    const found = findVM(this.#o.plan.status?.migration, vm);
    if (found) return found;
    const status: VMStatus = { ...vm, phase: '', pipeline: [] };
    if (isWarm(this.#o.plan)) status.warm = { successes: 0, failures: 0, consecutiveFailures: 0 };
    return status;
  }

  reset(vm: VMStatus, pipeline: Step[]): void {
    conditionsOf(vm, this.#o.clock).deleteCondition(ConditionType.Canceled, ConditionType.Failed);
    markReset(vm);
    vm.phase = this.itinerary(vm).first().name;
    vm.pipeline = pipeline;
    delete vm.error;
    if (isWarm(this.#o.plan)) vm.warm = { successes: 0, failures: 0, consecutiveFailures: 0 };
  }

  itinerary(vm: PlanVM): Itinerary<Flag> {
    const warm = isWarm(this.#o.plan);
    const unsupported = this.#o.unsupportedPhases ?? UNSUPPORTED_PHASES;
    const steps = (warm ? WARM_ITINERARY : COLD_ITINERARY).filter((s) => !unsupported.has(s.name));
    return new Itinerary<Flag>(warm ? 'Warm' : '', steps, (f) => this.#evaluate(vm, f));
  }

  async pipeline(vm: PlanVM): Promise<Step[]> {
    const pipeline: Step[] = [];
    const simple = (name: string, description: string): Step => ({
      name,
      description,
      progress: { completed: 0, total: 1 },
      phase: 'Pending',
    });
    const disks = async (name: string, description: string): Promise<Step> => {
      const tasks = await this.#o.builder.tasks(vm);
      return {
        name,
        description,
        progress: { completed: 0, total: tasks.reduce((sum, t) => sum + t.progress.total, 0) },
        annotations: { unit: 'MB' },
        phase: 'Pending',
        tasks,
      };
    };
    for (const s of this.itinerary(vm).list()) {
      switch (s.name) {
        case Phase.Started:
          pipeline.push(simple(StepName.Initialize, 'Initialize migration.'));
          break;
        case Phase.PreHook:
          pipeline.push(simple(StepName.PreHook, 'Run pre-migration hook.'));
          break;
        case Phase.CopyDisks:
          pipeline.push(await disks(StepName.DiskTransfer, 'Transfer disks.'));
          break;
        case Phase.AllocateDisks:
          pipeline.push(await disks(StepName.DiskAllocation, 'Allocate disks.'));
          break;
        case Phase.CopyDisksVirtV2V:
          pipeline.push(await disks(StepName.DiskTransferV2v, 'Copy disks.'));
          break;
        case Phase.ConvertOpenstackSnapshot:
          pipeline.push(
            await disks(StepName.ConvertOpenstackSnapshot, 'Convert OpenStack snapshot.'),
          );
          break;
        case Phase.Finalize: {
          const cutover = await disks(StepName.Cutover, 'Finalize disk transfer.');
          delete cutover.phase;
          pipeline.push(cutover);
          break;
        }
        case Phase.ConvertGuest:
          pipeline.push(simple(StepName.ImageConversion, 'Convert image to kubevirt.'));
          break;
        case Phase.PostHook:
          pipeline.push(simple(StepName.PostHook, 'Run post-migration hook.'));
          break;
        case Phase.CreateVM:
          pipeline.push(simple(StepName.VMCreation, 'Create VM.'));
          break;
        case Phase.WaitForGuestReboots:
          pipeline.push(
            simple(StepName.WaitForGuestReboots, 'Wait for Windows guest reboot after conversion.'),
          );
          break;
        case Phase.PreflightInspection:
          pipeline.push(simple(StepName.PreflightInspection, 'Inspect VM before migration.'));
          break;
        case Phase.WaitForFinalSnapshotRemoval:
          pipeline.push(
            simple(
              StepName.WaitForSnapshotConsolidation,
              'Waiting for final snapshot removal and consolidation',
            ),
          );
          break;
      }
    }
    if (pipeline.length === 0) throw new Error(`empty pipeline for VM ${vm.id ?? vm.name}`);
    return pipeline;
  }

  step(vm: VMStatus): string {
    const warm = isWarm(this.#o.plan);
    switch (vm.phase) {
      case Phase.Started:
      case Phase.CreateInitialSnapshot:
      case Phase.WaitForInitialSnapshot:
      case Phase.StoreInitialSnapshotDeltas:
        return StepName.Initialize;
      case Phase.AllocateDisks:
        return StepName.DiskAllocation;
      case Phase.CopyDisks:
      case Phase.CopyingPaused:
      case Phase.RemovePreviousSnapshot:
      case Phase.WaitForPreviousSnapshotRemoval:
      case Phase.CreateSnapshot:
      case Phase.WaitForSnapshot:
      case Phase.StoreSnapshotDeltas:
      case Phase.AddCheckpoint:
      case Phase.ConvertOpenstackSnapshot:
        return StepName.DiskTransfer;
      case Phase.CreateDataVolumes:
        return this.#o.runPreflightInspection === true
          ? StepName.DiskTransfer
          : StepName.Initialize;
      case Phase.RemovePenultimateSnapshot:
      case Phase.WaitForPenultimateSnapshotRemoval:
      case Phase.CreateFinalSnapshot:
      case Phase.WaitForFinalSnapshot:
      case Phase.AddFinalCheckpoint:
      case Phase.Finalize:
      case Phase.RemoveFinalSnapshot:
        return StepName.Cutover;
      case Phase.CreateGuestConversionPod:
      case Phase.ConvertGuest:
        return StepName.ImageConversion;
      case Phase.CopyDisksVirtV2V:
        return StepName.DiskTransferV2v;
      case Phase.CreateVM:
        return StepName.VMCreation;
      case Phase.WaitForGuestReboots:
        return StepName.WaitForGuestReboots;
      case Phase.PreHook:
      case Phase.PostHook:
        return vm.phase;
      case Phase.StorePowerState:
      case Phase.PowerOffSource:
      case Phase.WaitForPowerOff:
        return warm ? StepName.Cutover : StepName.Initialize;
      case Phase.PreflightInspection:
        return StepName.PreflightInspection;
      case Phase.WaitForFinalSnapshotRemoval:
        return StepName.WaitForSnapshotConsolidation;
      default:
        return StepName.Unknown;
    }
  }

  async executePhase(_vm: VMStatus): Promise<boolean> {
    return false;
  }

  /** Whether virt-v2v copies the disks: always for OVA and Hyper-V; vSphere cold with shared disks to the host. */
  useV2vForTransfer(vm: PlanVM): boolean {
    const { sourceType } = this.#o;
    if (sourceType === 'ova' || sourceType === 'hyperv') return true;
    if (sourceType !== 'vsphere' || isWarm(this.#o.plan)) return false;
    const shared =
      this.#o.inventory.get(vm.id ?? '')?.disks.some((d) => d.shared === true) ?? false;
    return shared && this.#o.destinationIsHost !== false;
  }

  #requiresConversion(): boolean {
    return CONVERSION_SOURCES.has(this.#o.sourceType) && this.#o.skipGuestConversion !== true;
  }

  #evaluate(vm: PlanVM, flag: Flag): boolean {
    switch (flag) {
      case 'HasPreHook':
        return (vm.hooks ?? []).some((h) => h.step === 'PreHook');
      case 'HasPostHook':
        return (vm.hooks ?? []).some((h) => h.step === 'PostHook');
      case 'RequiresConversion':
        return this.#requiresConversion();
      case 'CDIDiskCopy':
        return !this.useV2vForTransfer(vm);
      case 'VirtV2vDiskCopy':
        return this.useV2vForTransfer(vm);
      case 'OpenstackImageMigration':
        return this.#o.sourceType === 'openstack';
      case 'VSphere':
        return this.#o.sourceType === 'vsphere';
      case 'RunInspection':
        return this.#o.runPreflightInspection === true;
      case 'WindowsWaitForGuestReboot': {
        if (!this.#o.settings.windowsWaitForReboot) return false;
        const target = vm.targetPowerState ?? this.#o.plan.spec.targetPowerState;
        if (target === 'off') return false;
        const os = this.#o.inventory.get(vm.id ?? '')?.guestOS ?? '';
        if (!os.toLowerCase().includes('win')) return false;
        return this.#requiresConversion();
      }
      case 'WaitForFinalSnapshotConsolidation':
        return this.#o.settings.waitForFinalSnapshotConsolidation;
    }
  }
}

/**
 * Moves the VM to its next itinerary phase, or `Completed` after the last. When the step
 * changes, the old step is marked Completed and the new one started and Running.
 */
export function nextPhase(migrator: Migrator, vm: VMStatus, clock: Clock): void {
  const current = findStep(vm, migrator.step(vm));
  if (current === undefined) {
    addError(vm, `Step '${migrator.step(vm)}' not found`);
    return;
  }
  let next: string = Phase.Completed;
  try {
    const r = migrator.itinerary(vm).next(vm.phase);
    if (!r.done && r.next) next = r.next.name;
  } catch {
    next = Phase.Completed;
  }
  vm.phase = next;
  if (next === Phase.Completed) {
    markCompleted(current, clock);
    current.phase = 'Completed';
    return;
  }
  const nextStep = findStep(vm, migrator.step(vm));
  if (nextStep === undefined) {
    addError(vm, `Next step '${migrator.step(vm)}' not found`);
    return;
  }
  if (nextStep.name !== current.name) {
    markCompleted(current, clock);
    current.phase = 'Completed';
    markStarted(nextStep, clock);
    nextStep.phase = 'Running';
  }
}

/** The source inventory's VMs by id, for {@link BaseMigratorOptions.inventory}. */
export async function inventoryById(inventory: Inventory): Promise<Map<string, InventoryVM>> {
  return new Map((await inventory.listVMs()).map((vm) => [vm.id, vm]));
}
