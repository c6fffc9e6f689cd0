//! A plan, its references, a simulated source and an in-memory destination, driven pass by pass on a fake clock.

import type { Clock } from '@ctrlkit/core';
import { type InventoryVM, isGuestConversion } from '../adapter.js';
import type { Migration } from '../api/migration.js';
import type { Plan, PlanVM } from '../api/plan.js';
import type { Provider, ProviderType } from '../api/provider.js';
import { BaseMigrator } from '../base-migrator.js';
import { Category, conditionsOf, READY, True } from '../conditions.js';
import { MigrationRunner } from '../migration-runner.js';
import { type Generational, reconcilePlan } from '../plan-reconcile.js';
import { type MigrationSettings, migrationSettings } from '../settings.js';
import { SimulatedSource } from '../simulated-source.js';
import type { PlanReferences } from '../validation/validation-input.js';
import { InMemoryDestination } from './in-memory-destination.js';
import type { ScriptedHookRunner } from './scripted-hook-runner.js';

/** Options of {@link PlanHarness}. */
export interface PlanHarnessOptions {
  clock: Clock;
  /** How many simulated VMs (`vm-0`...), each with `disks` disks of `diskMiB`. Default 3. */
  vms?: number;
  disks?: number;
  diskMiB?: number;
  /** MiB/s per disk. Default 100. */
  copyRateMiBPerSecond?: number;
  warm?: boolean;
  settings?: Partial<MigrationSettings>;
  hookRunner?: ScriptedHookRunner;
  /** The inventory names of the VMs, by index. Default: the id (`vm-0`...). */
  names?: readonly string[];
  /** Edits each plan VM entry. */
  vm?: (vm: PlanVM, index: number) => PlanVM;
  /** The source provider's type (its itinerary). Default `simulated`. */
  sourceType?: ProviderType;
  /** The disks are shared between VMs (vSphere multi-writer). Default false. */
  sharedDisks?: boolean;
  /** The destination; when it implements `GuestConversion` it converts guests. Default: an `InMemoryDestination`. */
  destination?: InMemoryDestination;
}

const ready = (clock: Clock) => {
  const holder = {};
  conditionsOf(holder, clock).setCondition({
    type: READY,
    status: True,
    category: Category.Required,
  });
  return holder as { conditions: [] };
};

/** Builds and drives a plan the way the controller does, without an API server. */
export class PlanHarness {
  readonly clock: Clock;
  readonly source: SimulatedSource;
  readonly destination: InMemoryDestination;
  readonly #sourceType: ProviderType;
  readonly plan: Plan;
  readonly references: PlanReferences;
  readonly migrations: Migration[] = [];
  readonly settings: MigrationSettings;
  readonly inventory: InventoryVM[];
  /** Plans of the same source provider besides this one (for the scheduler). */
  readonly otherPlans: Plan[] = [];
  readonly #hookRunner: ScriptedHookRunner | undefined;
  #seq = 0;

  constructor(options: PlanHarnessOptions) {
    const { clock } = options;
    this.clock = clock;
    this.settings = migrationSettings(options.settings);
    this.#hookRunner = options.hookRunner;
    this.destination = options.destination ?? new InMemoryDestination('target');
    this.#sourceType = options.sourceType ?? 'simulated';
    const n = options.vms ?? 3;
    this.inventory = Array.from({ length: n }, (_, i) => ({
      id: `vm-${i}`,
      name: options.names?.[i] ?? `vm-${i}`,
      powerState: 'On' as const,
      networks: ['net-1'],
      disks: Array.from({ length: options.disks ?? 1 }, (_, d) => ({
        id: `disk-${d}`,
        capacityMiB: options.diskMiB ?? 1000,
        datastore: 'ds-1',
        ...(options.sharedDisks && { shared: true }),
      })),
    }));
    this.source = new SimulatedSource({
      clock,
      vms: this.inventory,
      copyRateMiBPerSecond: options.copyRateMiBPerSecond ?? 100,
    });
    const provider = (name: string, type: Provider['spec']['type']): Provider => ({
      metadata: { name, namespace: 'ns', uid: `uid-${name}`, generation: 1 },
      spec: { type },
      status: ready(clock),
    });
    this.references = {
      source: provider('src', this.#sourceType),
      destination: provider('host', 'openshift'),
      networkMap: {
        metadata: { name: 'net', namespace: 'ns', uid: 'uid-net', generation: 1 },
        spec: {
          provider: { source: { name: 'src' }, destination: { name: 'host' } },
          map: [{ source: { id: 'net-1' }, destination: { type: 'pod' } }],
        },
        status: ready(clock),
      },
      storageMap: {
        metadata: { name: 'sto', namespace: 'ns', uid: 'uid-sto', generation: 1 },
        spec: {
          provider: { source: { name: 'src' }, destination: { name: 'host' } },
          map: [{ source: { id: 'ds-1' }, destination: { storageClass: 'standard' } }],
        },
        status: ready(clock),
      },
      hook: () => undefined,
    };
    this.plan = {
      metadata: { name: 'plan', namespace: 'ns', uid: 'uid-plan', generation: 1 },
      spec: {
        provider: { source: { name: 'src' }, destination: { name: 'host' } },
        targetNamespace: 'target',
        map: { network: { name: 'net' }, storage: { name: 'sto' } },
        vms: this.inventory.map((v, i) =>
          options.vm ? options.vm({ id: v.id }, i) : { id: v.id },
        ),
        ...(options.warm && { warm: true }),
      },
    };
  }

  /** Adds a Migration of the plan, created `seq` ms after the epoch. */
  addMigration(spec: Partial<Migration['spec']> = {}): Migration {
    const seq = ++this.#seq;
    const m: Migration = {
      metadata: {
        name: `m${seq}`,
        namespace: 'ns',
        uid: `uid-m${seq}`,
        creationTimestamp: new Date(seq * 1000).toISOString(),
      },
      spec: { plan: { name: 'plan', namespace: 'ns' }, ...spec },
    };
    this.migrations.push(m);
    return m;
  }

  /** Providers, maps and hooks the plan depends on (for postponing). */
  readonly dependencies: Generational[] = [];

  /** One reconcile, as the controller runs it. Returns the requeue delay. */
  async reconcile(): Promise<number> {
    const { plan, clock } = this;
    const result = await reconcilePlan({
      plan,
      clock,
      references: this.references,
      dependencies: this.dependencies,
      source: {
        inventory: this.source,
        validator: this.source.validator(plan, {
          network: this.references.networkMap,
          storage: this.references.storageMap,
        }),
      },
      destinationVMExists: (ns, name) => this.destination.vmExists(ns, name),
      blockerGracePeriodMs: this.settings.blockerGracePeriodMs,
      getMigration: (ns, name) =>
        this.migrations.find((m) => m.metadata.namespace === ns && m.metadata.name === name),
      listMigrations: () => this.migrations,
      run: (migration) => this.#runner(migration).run(),
      cancel: (migration) => this.#runner(migration).cancel(),
      archive: () => this.#runner(undefined).archive(),
    });
    this.passes++;
    if (result.writeStatus) this.statusWrites++;
    return result.requeueAfterMs;
  }

  /** Reconciles done, and those that computed a status to write. */
  passes = 0;
  statusWrites = 0;

  /** Reconciles, stepping the clock by `stepMs` between passes, until the requeue is 0 or `maxPasses`. Returns the passes. */
  async runToEnd(stepMs = 1_000, maxPasses = 10_000): Promise<number> {
    for (let pass = 1; pass <= maxPasses; pass++) {
      if ((await this.reconcile()) === 0) return pass;
      (this.clock as { step?: (ms: number) => void }).step?.(stepMs);
    }
    throw new Error(`plan did not settle in ${maxPasses} passes`);
  }

  /** The VM status of `id`. */
  vm(id: string) {
    const vm = this.plan.status?.migration?.vms?.find((v) => v.id === id);
    if (vm === undefined) throw new Error(`no status for ${id}`);
    return vm;
  }

  /** `True` condition types of the plan. */
  planConditions(): string[] {
    return (this.plan.status?.conditions ?? []).filter((c) => c.status === True).map((c) => c.type);
  }

  #runner(migration: Migration | undefined): MigrationRunner {
    const migrator = new BaseMigrator({
      plan: this.plan,
      sourceType: this.#sourceType,
      builder: this.source,
      clock: this.clock,
      settings: this.settings,
      inventory: new Map(this.inventory.map((v) => [v.id, v])),
    });
    return new MigrationRunner({
      plan: this.plan,
      ...(migration !== undefined && { migration }),
      inventory: this.source,
      client: this.source,
      builder: this.source,
      destination: this.destination,
      ensurer: this.destination,
      ...(isGuestConversion(this.destination) && { guestConversion: this.destination }),
      sourceType: this.#sourceType,
      migrator,
      settings: this.settings,
      clock: this.clock,
      plans: () => [this.plan, ...this.otherPlans],
      ...(this.#hookRunner !== undefined && { hookRunner: this.#hookRunner }),
    });
  }
}
