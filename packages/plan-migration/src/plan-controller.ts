//! The Plan controller on the runtime Controller: watches, reconcile, status writes, the Migration mirror, events and metrics.

import {
  type Clock,
  InvalidArgumentError,
  type Logger,
  noopLogger,
  realClock,
} from '@ctrlkit/core';
import { type Controller, SharedInformerFactory } from '@ctrlkit/runtime';
import {
  type Client as ApiClient,
  finalizer,
  type KubeConfigLike,
  toClient,
} from '@ctrlkit/runtime/client';
import type { EventRecorderLike } from '@ctrlkit/runtime/events';
import { type SharedIndexInformer, splitMetaNamespaceKey } from '@ctrlkit/runtime/informers';
import type { Shard } from '@ctrlkit/runtime/sharding';
import type { Registry } from 'prom-client';
import {
  type Destination,
  type DestinationContext,
  type HookRunner,
  type InventoryVM,
  isGuestConversion,
  type SourceAdapter,
} from './adapter.js';
import type { Migration } from './api/migration.js';
import type { Plan } from './api/plan.js';
import type { Provider } from './api/provider.js';
import { BaseMigrator, inventoryById } from './base-migrator.js';
import { ConfigMapDestination } from './configmap-destination.js';
import { type ApiGroup, apiGroupOption, PLURALS, VERSION } from './crds.js';
import { type CoreApi, coreApi, customApi } from './internal/kube-api.js';
import { MigrationRunner } from './migration-runner.js';
import {
  observeVMs,
  type PlanMetrics,
  planMetrics,
  recordOutcome,
} from './plan-controller/metrics.js';
import { migrationArriving } from './plan-controller/migration-arriving.js';
import { migrationMirror } from './plan-controller/migration-mirror.js';
import { PlanReferenceCache } from './plan-controller/plan-references.js';
import { planRuntimeController } from './plan-controller/plan-runtime-controller.js';
import { PlanStore } from './plan-controller/plan-store.js';
import { watchPlanInputs } from './plan-controller/plan-watches.js';
import { type PlanReconcileInput, reconcilePlan } from './plan-reconcile.js';
import { FAST_REQ } from './requeue.js';
import { type MigrationSettings, migrationSettings } from './settings.js';
import type { PlanReferences } from './validation/validation-input.js';

/** Options of {@link PlanController}. */
export interface PlanControllerOptions {
  /**
   * Where the Plans and the destination live: the runtime's one client (`manager.client`).
   * Required unless `kubeConfig` is given.
   */
  client?: ApiClient;
  /** Instead of `client`, for convenience: this kubeconfig's default client. */
  kubeConfig?: KubeConfigLike;
  /** The adapters of a source provider; undefined when its type is not supported. Required. */
  sources: (provider: Provider) => SourceAdapter | undefined;
  /** The informers to use (started by whoever owns them). Default: a factory of its own, started by `run`. */
  informerFactory?: SharedInformerFactory;
  /** Records an event per VM phase change and per plan outcome. Default: none. */
  eventRecorder?: EventRecorderLike;
  /** Where the metrics are registered. Default: none are kept. */
  registry?: Registry;
  /** Runs hooks; without one, VMs with hooks fail at the hook step. */
  hookRunner?: HookRunner;
  /**
   * Makes the destination of a plan's pass (e.g. a `KubeVirtDestination`). A destination
   * that also implements `GuestConversion` converts guests. Default: a `ConfigMapDestination`.
   */
  destination?: (context: DestinationContext) => Destination;
  /** Tunables. Default: `migrationSettings()`. */
  settings?: Partial<MigrationSettings>;
  /**
   * When set, every non-zero requeue delay is this many ms instead of PollReQ/FastReQ/SlowReQ
   * (for tests and demos on short simulated durations). Default: the delays as reconciled.
   */
  pollIntervalMs?: number;
  /**
   * Runs the controller sharded: its Plan and Migration informers are this `Shard`'s (only
   * the objects labelled with its shard), the Shard runs the controller while the replica
   * holds its shard Lease and acknowledges drains, and `run` is not called. The Shard's ring
   * must name the Plan resource of `apiGroup` in `resources` and the Migration resource in
   * `resources` or `controlledResources`; the other informers (Providers, maps, Hooks) come
   * from `informerFactory`, then required (the Manager's, which the Manager starts).
   * Default: not sharded (every Plan).
   */
  shard?: Shard;
  /** Concurrent plan reconciles. Default {@link DEFAULT_PLAN_WORKERS}. */
  maxConcurrentReconciles?: number;
  /** The API group of the forklift resources: `forklift.ctrlkit.dev` (default) or Forklift's `forklift.konveyor.io`. */
  apiGroup?: ApiGroup;
  clock?: Clock;
  logger?: Logger;
}

/**
 * The finalizer the controller keeps on every Plan, so that a Plan's cleanup (archive,
 * then its orphans) runs before the Plan goes, even when it was deleted while the
 * controller was down.
 */
export const PLAN_FINALIZER = 'forklift.ctrlkit.dev/plan-cleanup';

/** Plans reconciled at once by default: 10, as Forklift's MAX_CONCURRENT_RECONCILES. */
export const DEFAULT_PLAN_WORKERS = 10;

const FAST = { requeueAfterMs: FAST_REQ };

/**
 * Reconciles Plans: validation, conditions, execution and the per-VM pipeline, writing
 * `Plan.status` (and mirroring it to the active Migration's status) through the status
 * subresource with merge patches. Watches: Plans whose generation is not yet observed (and
 * deletions, which clean up orphans); Providers, maps and Hooks map to the Plans that
 * reference them; Migrations map to their Plan.
 */
export class PlanController {
  readonly #o: PlanControllerOptions;
  readonly #settings: MigrationSettings;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #factory: SharedInformerFactory;
  readonly #ownFactory: boolean;
  readonly #client: ApiClient;
  readonly #store: PlanStore;
  readonly #refs: PlanReferenceCache;
  readonly #core: CoreApi;
  readonly #controller: Controller;
  readonly #metrics: PlanMetrics | undefined;
  readonly #group: ApiGroup;
  readonly #sharded: boolean;
  readonly #plans: SharedIndexInformer<Plan>;
  readonly #migrations: SharedIndexInformer<Migration>;
  /** Status writes made (Plan and Migration), for tests and the benchmark. */
  statusWrites = 0;
  /** Reconciles run. */
  reconciles = 0;
  /** Destination writes made (creates, patches, deletes of disks, VMs and namespaces). */
  destinationWrites = 0;

  constructor(options: PlanControllerOptions) {
    const client = options?.client ?? options?.kubeConfig;
    if (client === undefined)
      throw new InvalidArgumentError('client', 'is required (the runtime client, or kubeConfig)');
    if (typeof options.sources !== 'function')
      throw new InvalidArgumentError('sources', 'must be a function');
    const poll = options.pollIntervalMs;
    if (poll !== undefined && (!Number.isFinite(poll) || poll <= 0)) {
      throw new InvalidArgumentError('pollIntervalMs', `must be a finite number > 0, got ${poll}`);
    }
    this.#group = apiGroupOption('apiGroup', options.apiGroup);
    this.#sharded = options.shard !== undefined;
    if (this.#sharded && options.informerFactory === undefined) {
      throw new InvalidArgumentError(
        'informerFactory',
        "is required with shard (the Manager's, for the Provider, map and Hook informers)",
      );
    }
    this.#o = options;
    this.#settings = migrationSettings(options.settings);
    this.#clock = options.clock ?? realClock;
    this.#log = options.logger ?? noopLogger;
    this.#ownFactory = options.informerFactory === undefined;
    this.#client = toClient(client);
    this.#factory = options.informerFactory ?? new SharedInformerFactory(this.#client, {});
    this.#store = new PlanStore(customApi(this.#client), this.#group);
    this.#core = coreApi(this.#client);
    this.#metrics = options.registry ? planMetrics(options.registry) : undefined;
    const gvr = (kind: keyof typeof PLURALS) => this.#gvr(kind);
    this.#refs = new PlanReferenceCache(this.#factory, gvr);
    const { controller, plans, migrations } = planRuntimeController({
      shard: options.shard,
      factory: this.#factory,
      gvr,
      controller: {
        name: 'plan',
        reconcile: (key: string) => this.#reconcile(key),
        maxConcurrentReconciles: options.maxConcurrentReconciles ?? DEFAULT_PLAN_WORKERS,
        clock: this.#clock,
        logger: this.#log,
      },
    });
    this.#controller = controller;
    this.#plans = plans;
    this.#migrations = migrations;
    watchPlanInputs({ controller, factory: this.#factory, gvr, plans, migrations });
  }

  /**
   * Runs until `signal` fires (starting its own informers when it made them).
   * @throws InvalidArgumentError when sharded: the `shard` runs the controller.
   */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#sharded) {
      throw new InvalidArgumentError('run', 'a sharded PlanController is run by its shard');
    }
    if (this.#ownFactory) this.#factory.start(signal);
    await this.#controller.run(signal);
  }

  /** The group/version/resource of a forklift kind in this controller's API group. */
  #gvr(kind: keyof typeof PLURALS) {
    return { group: this.#group, version: VERSION, resource: PLURALS[kind] };
  }

  /** One reconcile of `key`, logged at debug with its start and end (ms of the clock). */
  async #reconcile(key: string): Promise<{ requeueAfterMs: number } | undefined> {
    const start = this.#clock.now();
    try {
      return await this.#reconcileOnce(key);
    } finally {
      this.#log.debug({ plan: key, start, end: this.#clock.now() }, 'plan reconciled');
    }
  }

  async #reconcileOnce(key: string): Promise<{ requeueAfterMs: number } | undefined> {
    this.reconciles++;
    const { namespace, name } = splitMetaNamespaceKey(key);
    // Read the plan from the apiserver, not the cache (Forklift's APIReader): the status this
    // reconcile builds on must include the last one written.
    const cached = await this.#store.readPlan(namespace, name);
    if (cached === undefined) {
      // Gone (its delete event): clean up what is left; this is all a plan deleted before it
      // got the finalizer gets.
      await this.#cleanupDeletedPlan(key, namespace, name);
      return undefined;
    }
    // Sharded: the active Migration follows its Plan into this shard's cache; wait for it.
    if (this.#sharded && (await migrationArriving(cached, this.#migrations.indexer, this.#store)))
      return FAST;
    const result = await finalizer(this.#client, PLAN_FINALIZER, cached, (event) =>
      event.type === 'Apply' ? this.#apply(key, cached) : this.#cleanup(key, cached),
    );
    // The finalizer was just added (an update event that a generation filter may drop): come back.
    if (result === undefined) return cached.metadata.deletionTimestamp ? undefined : FAST;
    if (result.requeueAfterMs === 0) return undefined;
    return { requeueAfterMs: this.#o.pollIntervalMs ?? result.requeueAfterMs };
  }

  /** One reconcile of a live plan; writes its status and the Migration mirror. */
  async #apply(key: string, cached: Plan): Promise<{ requeueAfterMs: number }> {
    const plan = structuredClone(cached);
    const before = JSON.stringify(plan.status ?? {});
    const result = await reconcilePlan(this.#reconcileInput(key, cached, plan));
    if (result.writeStatus && JSON.stringify(plan.status) !== before) {
      // A PUT with the resourceVersion read: a conflict fails the reconcile, which retries.
      this.statusWrites++;
      await this.#store.replacePlanStatus(plan);
      recordOutcome(this.#o.eventRecorder, this.#metrics, cached, plan);
      const mirror = migrationMirror(plan, (ns, mName) =>
        this.#migrations.indexer.getByKey(`${ns}/${mName}`),
      );
      if (mirror !== undefined) {
        this.statusWrites++;
        await this.#store.patchStatus('Migration', mirror.namespace, mirror.name, mirror.status);
      }
    }
    observeVMs(this.#metrics, plan);
    return { requeueAfterMs: result.requeueAfterMs };
  }

  /**
   * A plan being deleted (the finalizer's Cleanup): the archive's best-effort cleanup of
   * every VM, then its orphans. Runs again until it succeeds; then the finalizer goes.
   */
  async #cleanup(key: string, cached: Plan): Promise<{ requeueAfterMs: number }> {
    const { namespace = '', name = '' } = cached.metadata;
    await this.#reconcileInput(key, cached, structuredClone(cached)).archive();
    await this.#cleanupDeletedPlan(key, namespace, name);
    return { requeueAfterMs: 0 };
  }

  /** A deleted plan: deletes what it left on the destination. */
  async #cleanupDeletedPlan(key: string, namespace: string, name: string): Promise<void> {
    const deleted = await this.#destination({
      plan: { metadata: { name, namespace }, spec: { targetNamespace: '' } } as Plan,
      migrationUID: '',
      migrationName: '',
      client: this.#client,
    }).deleteOrphans(namespace, name);
    this.#log.info({ plan: key, deleted }, 'plan deleted, orphaned resources cleaned up');
  }

  /** What one reconcile of `plan` works with: its references, the source's adapters, and how to run a pass. */
  #reconcileInput(key: string, cached: Plan, plan: Plan): PlanReconcileInput {
    const refs = this.#refs.references(plan);
    const source = refs.source ? this.#o.sources(refs.source) : undefined;
    const maps = {
      ...(refs.networkMap && { network: refs.networkMap }),
      ...(refs.storageMap && { storage: refs.storageMap }),
    };
    const destination = (migration?: Migration) =>
      this.#destination({
        plan,
        migrationUID: migration?.metadata.uid ?? '',
        migrationName: migration?.metadata.name ?? '',
        ...(refs.source && { source: refs.source }),
        ...(source && { builder: source.builder, inventory: source.inventory }),
        ...(refs.storageMap && { storageMap: refs.storageMap }),
        ...(refs.networkMap && { networkMap: refs.networkMap }),
        client: this.#client,
      });
    const runner = async (migration: Migration | undefined) => {
      if (source === undefined) throw new Error(`plan ${key}: no adapter for the source provider`);
      // The itinerary's predicates read the VMs as the source inventory describes them.
      const inventory = await inventoryById(source.inventory);
      return this.#runner(cached, plan, refs, source, destination(migration), migration, inventory);
    };
    return {
      plan,
      clock: this.#clock,
      references: refs,
      dependencies: this.#refs.dependencies() as never,
      ...(source && {
        source: { inventory: source.inventory, validator: source.validator(plan, maps) },
      }),
      destinationVMExists: (ns, vmName) => destination().vmExists(ns, vmName),
      blockerGracePeriodMs: this.#settings.blockerGracePeriodMs,
      getMigration: (ns, mName) => this.#migrations.indexer.getByKey(`${ns}/${mName}`),
      listMigrations: () => this.#migrations.indexer.list(),
      run: async (m) => {
        const r = await runner(m);
        try {
          return await r.run();
        } finally {
          this.destinationWrites += r.destinationWrites;
        }
      },
      cancel: async (m) => {
        if (source === undefined) return;
        const r = await runner(m);
        try {
          await r.cancel();
        } finally {
          this.destinationWrites += r.destinationWrites;
        }
      },
      archive: async () => {
        if (source !== undefined) await (await runner(undefined)).archive();
      },
    };
  }

  /** A runner of one pass of `plan` on `destination`, reporting VM phase changes as events and metrics. */
  #runner(
    cached: Plan,
    plan: Plan,
    refs: PlanReferences,
    source: SourceAdapter,
    destination: Destination,
    migration: Migration | undefined,
    inventory: ReadonlyMap<string, InventoryVM>,
  ): MigrationRunner {
    return new MigrationRunner({
      plan,
      ...(migration && { migration }),
      inventory: source.inventory,
      client: source.client,
      builder: source.builder,
      destination,
      ensurer: destination,
      ...(isGuestConversion(destination) && { guestConversion: destination }),
      ...(refs.source && { sourceType: refs.source.spec.type }),
      migrator: new BaseMigrator({
        plan,
        sourceType: refs.source?.spec.type ?? 'simulated',
        builder: source.builder,
        clock: this.#clock,
        settings: this.#settings,
        inventory,
      }),
      settings: this.#settings,
      clock: this.#clock,
      logger: this.#log,
      plans: () => [
        plan,
        ...this.#plans.indexer.list().filter((p) => p.metadata.uid !== plan.metadata.uid),
      ],
      ...(this.#o.hookRunner && { hookRunner: this.#o.hookRunner }),
      onPhase: ({ vm, from, to }) => {
        this.#o.eventRecorder?.event(
          cached,
          'Normal',
          'VMPhase',
          `VM ${vm.id ?? vm.name}: ${from} -> ${to}`,
        );
        this.#metrics?.transitions.inc({ phase: to });
      },
    });
  }

  #destination(context: DestinationContext): Destination {
    return this.#o.destination
      ? this.#o.destination(context)
      : new ConfigMapDestination(this.#core, context.plan, context.migrationUID);
  }
}
