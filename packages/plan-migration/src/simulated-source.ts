//! A SIMULATOR of a source provider (type `simulated`): inventory, power, snapshots and disk copies that advance with the clock.

import { type Clock, InvalidArgumentError } from '@ctrlkit/core';
import type {
  Builder,
  Client,
  DiskTransfer,
  Inventory,
  InventoryVM,
  Validator,
} from './adapter.js';
import type { NetworkMap, StorageMap } from './api/mapping.js';
import type { Plan, Task } from './api/plan.js';
import type { Ref } from './api/ref.js';

/** Copy speed of a simulated disk: 1024 MiB/s. */
export const DEFAULT_SIMULATED_COPY_RATE_MIB_PER_S = 1024;
/** How long a simulated power-off takes: 0 ms (done at the next look). */
export const DEFAULT_SIMULATED_POWER_OFF_MS = 0;
/** How long a simulated snapshot takes to become ready: 0 ms. */
export const DEFAULT_SIMULATED_SNAPSHOT_MS = 0;
/** Share of a disk a warm precopy after the first copies again: 10%. */
export const SIMULATED_DELTA_FRACTION = 0.1;

/** Options of {@link SimulatedSource}. */
export interface SimulatedSourceOptions {
  /** The clock copies advance with. Required. */
  clock: Clock;
  /** The VMs of the inventory. Required. */
  vms: InventoryVM[];
  /** MiB per second each disk copies at. Default {@link DEFAULT_SIMULATED_COPY_RATE_MIB_PER_S}. */
  copyRateMiBPerSecond?: number;
  /** Power-off time, ms. Default {@link DEFAULT_SIMULATED_POWER_OFF_MS}. */
  powerOffMs?: number;
  /** Snapshot time, ms. Default {@link DEFAULT_SIMULATED_SNAPSHOT_MS}. */
  snapshotMs?: number;
  /** Whether warm migration is offered. Default true. */
  warm?: boolean;
}

interface VMState {
  vm: InventoryVM;
  poweredOffAt?: number;
  round?: number;
  transferStartedAt?: number;
  snapshots: Map<string, number>;
}

/**
 * A simulated source provider, for tests, demos and benchmarks. Disks copy in parallel at
 * `copyRateMiBPerSecond`, measured on the clock; the first round copies the whole disk,
 * later (warm) rounds {@link SIMULATED_DELTA_FRACTION} of it. Faults are injected with
 * {@link SimulatedSource.failDiskCopy}.
 */
export class SimulatedSource implements Inventory, Client, Builder {
  readonly #clock: Clock;
  readonly #rate: number;
  readonly #powerOffMs: number;
  readonly #snapshotMs: number;
  readonly #warm: boolean;
  readonly #vms = new Map<string, VMState>();
  readonly #failures = new Map<string, { afterMiB: number; message: string }>();
  #snapshotSeq = 0;
  /** Calls per operation, for tests and the benchmark. */
  readonly calls = new Map<string, number>();

  constructor(options: SimulatedSourceOptions) {
    if (options.clock === undefined) throw new InvalidArgumentError('clock', 'is required');
    if (!Array.isArray(options.vms)) throw new InvalidArgumentError('vms', 'must be an array');
    const rate = options.copyRateMiBPerSecond ?? DEFAULT_SIMULATED_COPY_RATE_MIB_PER_S;
    if (!(rate > 0) || !Number.isFinite(rate)) {
      throw new InvalidArgumentError(
        'copyRateMiBPerSecond',
        `must be a finite number > 0, got ${rate}`,
      );
    }
    for (const key of ['powerOffMs', 'snapshotMs'] as const) {
      const v = options[key];
      if (v !== undefined && (!Number.isFinite(v) || v < 0)) {
        throw new InvalidArgumentError(key, `must be a finite number >= 0, got ${v}`);
      }
    }
    this.#clock = options.clock;
    this.#rate = rate;
    this.#powerOffMs = options.powerOffMs ?? DEFAULT_SIMULATED_POWER_OFF_MS;
    this.#snapshotMs = options.snapshotMs ?? DEFAULT_SIMULATED_SNAPSHOT_MS;
    this.#warm = options.warm ?? true;
    for (const vm of options.vms) {
      if (this.#vms.has(vm.id)) throw new InvalidArgumentError('vms', `duplicate id ${vm.id}`);
      this.#vms.set(vm.id, { vm: structuredClone(vm), snapshots: new Map() });
    }
  }

  /** Makes the disk's copy fail once `afterMiB` MiB are copied. */
  failDiskCopy(vmId: string, diskId: string, message: string, afterMiB = 0): void {
    this.#failures.set(`${vmId}/${diskId}`, { afterMiB, message });
  }

  /** Removes injected failures of a VM (so a later run succeeds). */
  clearFailures(vmId: string): void {
    for (const key of [...this.#failures.keys()])
      if (key.startsWith(`${vmId}/`)) this.#failures.delete(key);
  }

  // Inventory.

  async findVM(ref: Ref): Promise<InventoryVM | undefined> {
    this.#count('findVM');
    return this.#lookup(ref)?.vm;
  }

  async listVMs(): Promise<InventoryVM[]> {
    return [...this.#vms.values()].map((s) => s.vm);
  }

  // Builder.

  async tasks(ref: Ref): Promise<Task[]> {
    const state = this.#must(ref);
    return state.vm.disks.map((d) => ({
      name: d.id,
      progress: { completed: 0, total: d.capacityMiB },
      annotations: { unit: 'MB' },
    }));
  }

  /**
   * A CDI `http` source for the disk (`http://simulated.invalid/<vm>/<disk>`, the VM's
   * Secret as credentials): nothing serves it, so only a CDI simulator can import it.
   */
  async dataVolumeSource(
    ref: Ref,
    disk: string,
    refs: { secret: string; configMap: string },
  ): Promise<Record<string, unknown>> {
    const state = this.#must(ref);
    if (!state.vm.disks.some((d) => d.id === disk)) {
      throw new InvalidArgumentError('disk', `VM ${state.vm.id} has no disk ${disk}`);
    }
    return {
      http: { url: `http://simulated.invalid/${state.vm.id}/${disk}`, secretRef: refs.secret },
    };
  }

  // Client.

  async powerState(ref: Ref): Promise<'On' | 'Off' | 'Unknown'> {
    return this.#powerState(this.#must(ref));
  }

  async powerOn(ref: Ref): Promise<void> {
    this.#count('powerOn');
    const state = this.#must(ref);
    state.vm.powerState = 'On';
    delete state.poweredOffAt;
  }

  async powerOff(ref: Ref): Promise<void> {
    this.#count('powerOff');
    const state = this.#must(ref);
    if (this.#powerState(state) === 'Off' || state.poweredOffAt !== undefined) return;
    state.poweredOffAt = this.#clock.now() + this.#powerOffMs;
  }

  async poweredOff(ref: Ref): Promise<boolean> {
    return this.#powerState(this.#must(ref)) === 'Off';
  }

  async createSnapshot(ref: Ref): Promise<string> {
    this.#count('createSnapshot');
    const state = this.#must(ref);
    const id = `snapshot-${++this.#snapshotSeq}`;
    state.snapshots.set(id, this.#clock.now() + this.#snapshotMs);
    return id;
  }

  async checkSnapshotReady(ref: Ref, snapshot: string): Promise<boolean> {
    const at = this.#must(ref).snapshots.get(snapshot);
    if (at === undefined) throw new Error(`snapshot ${snapshot} not found`);
    return this.#clock.now() >= at;
  }

  async removeSnapshot(ref: Ref, snapshot: string): Promise<void> {
    this.#must(ref).snapshots.delete(snapshot);
  }

  async startTransfer(ref: Ref, round: number): Promise<void> {
    const state = this.#must(ref);
    if (state.round === round && state.transferStartedAt !== undefined) return;
    this.#count('startTransfer');
    state.round = round;
    state.transferStartedAt = this.#clock.now();
  }

  async transferStatus(ref: Ref): Promise<DiskTransfer[]> {
    const state = this.#must(ref);
    return state.vm.disks.map((d) => {
      if (state.transferStartedAt === undefined) {
        return { disk: d.id, phase: 'Pending', completedMiB: 0, totalMiB: d.capacityMiB };
      }
      const size =
        (state.round ?? 0) === 0
          ? d.capacityMiB
          : Math.max(1, Math.ceil(d.capacityMiB * SIMULATED_DELTA_FRACTION));
      const copied = Math.min(
        size,
        Math.floor(((this.#clock.now() - state.transferStartedAt) * this.#rate) / 1000),
      );
      const failure = this.#failures.get(`${state.vm.id}/${d.id}`);
      if (failure !== undefined && copied >= Math.min(failure.afterMiB, size)) {
        return {
          disk: d.id,
          phase: 'Failed',
          completedMiB: copied,
          totalMiB: size,
          error: failure.message,
        };
      }
      return {
        disk: d.id,
        phase: copied >= size ? 'Succeeded' : 'ImportInProgress',
        completedMiB: copied,
        totalMiB: size,
      };
    });
  }

  async cancelTransfer(ref: Ref): Promise<void> {
    this.#count('cancelTransfer');
    const state = this.#must(ref);
    delete state.transferStartedAt;
    delete state.round;
  }

  /** A validator for a plan and its maps: networks and datastores must be mapped by id or name. */
  validator(plan: Plan, maps: { network?: NetworkMap; storage?: StorageMap }): Validator {
    const mapped = (pairs: Array<{ source: Ref }> | undefined, value: string) =>
      (pairs ?? []).some((p) => p.source.id === value || p.source.name === value);
    return {
      warmMigration: () => this.#warm,
      migrationType: () =>
        plan.spec.type === undefined || plan.spec.type === 'cold' || plan.spec.type === 'warm',
      networksMapped: async (ref) => {
        const vm = this.#lookup(ref)?.vm;
        return vm?.networks.every((n) => mapped(maps.network?.spec.map, n)) ?? false;
      },
      storageMapped: async (ref) => {
        const vm = this.#lookup(ref)?.vm;
        return vm?.disks.every((d) => mapped(maps.storage?.spec.map, d.datastore)) ?? false;
      },
    };
  }

  #powerState(state: VMState): 'On' | 'Off' {
    if (state.poweredOffAt !== undefined && this.#clock.now() >= state.poweredOffAt) {
      state.vm.powerState = 'Off';
      delete state.poweredOffAt;
    }
    return state.vm.powerState;
  }

  #lookup(ref: Ref): VMState | undefined {
    if (ref.id) return this.#vms.get(ref.id);
    return [...this.#vms.values()].find((s) => s.vm.name === ref.name);
  }

  #must(ref: Ref): VMState {
    const state = this.#lookup(ref);
    if (state === undefined)
      throw new Error(`simulated source: VM ${ref.id ?? ref.name} not found`);
    return state;
  }

  #count(op: string): void {
    this.calls.set(op, (this.calls.get(op) ?? 0) + 1);
  }
}
