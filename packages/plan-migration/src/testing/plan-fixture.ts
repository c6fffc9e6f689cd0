//! A test namespace's Forklift objects on a real cluster: the Providers and maps a Plan runs on, the Plans, and reads of them.

import { InvalidArgumentError } from '@ctrlkit/core';
import { type Client, type ClientSource, toClient } from '@ctrlkit/runtime/client';
import type { V1StorageClass } from '@kubernetes/client-node';
import type { PlanSpec } from '../api/plan.js';
import type { ProviderSpec } from '../api/provider.js';
import { API_VERSION, GROUP, PLURALS, VERSION } from '../crds.js';
import { type CustomApi, customApi } from '../internal/kube-api.js';

/** A Forklift kind: `Provider`, `NetworkMap`, `StorageMap`, `Hook`, `Plan` or `Migration`. */
export type ForkliftKind = keyof typeof PLURALS;

/** Options of {@link PlanFixture}. */
export interface PlanFixtureOptions {
  /**
   * Where the requests go: a runtime `Client`, or a kubeconfig (its one default client,
   * shared with the simulators given it). Required.
   */
  client: ClientSource;
  /** The namespace the objects go to (it must exist). Required. */
  namespace: string;
}

/** The source side of {@link PlanFixture.createProvidersAndMaps}. */
export interface ProvidersAndMapsOptions {
  /** The source Provider's name. Default `src`. */
  sourceName?: string;
  /** The source Provider's spec (`type`, `url`, `settings`). Required. */
  source: ProviderSpec;
  /** Source network ids, each mapped to the pod network by NetworkMap `net`. Default `['net-1']`. */
  networks?: readonly string[];
  /** Source datastore ids, each mapped to `storageClass` by StorageMap `sto`. Default `['ds-1']`. */
  datastores?: readonly string[];
  /** The storage class the datastores map to. Required. */
  storageClass: string;
  /**
   * Marks each object Ready as its own controller would ({@link PlanFixture.markReady}),
   * for tests of the Plan controller without the Provider and map controllers. Default false.
   */
  ready?: boolean;
}

/** A Plan's spec for {@link PlanFixture.createPlan}: the fixture fills `provider` and `map`. */
export type PlanFixtureSpec = Omit<PlanSpec, 'provider' | 'map'> & Partial<Pick<PlanSpec, 'map'>>;

/**
 * A test namespace's Forklift objects, written through the runtime's client: `create`,
 * `read` and `list` any kind, {@link PlanFixture.createProvidersAndMaps} for what a Plan
 * runs on (a source Provider, the `host` destination of type `openshift`, NetworkMap `net`
 * and StorageMap `sto` between them), and {@link PlanFixture.createPlan} for Plans on them.
 * The objects are as a user writes them, for their own controllers to make Ready; or, for
 * tests of the Plan controller alone, marked Ready here ({@link PlanFixture.markReady}).
 *
 * @example
 * ```ts
 * import { PlanFixture } from '@ctrlkit/plan-migration/testing';
 * import type { KubeConfig } from '@kubernetes/client-node';
 *
 * declare const kubeConfig: KubeConfig;
 * const fixture = new PlanFixture({ client: kubeConfig, namespace: 'plans' });
 * await fixture.createProvidersAndMaps({
 *   source: { type: 'simulated', settings: { vms: '2' } },
 *   storageClass: 'standard',
 * });
 * await fixture.createPlan('plan', { targetNamespace: 'target', vms: [{ id: 'vm-0' }] });
 * await fixture.create('Migration', 'run-1', { plan: { name: 'plan' } });
 * ```
 */
export class PlanFixture {
  /** The namespace of the objects. */
  readonly namespace: string;
  readonly #client: Client;
  readonly #custom: CustomApi;
  /** The source Provider of the last {@link PlanFixture.createProvidersAndMaps}. */
  #sourceName = 'src';

  constructor(options: PlanFixtureOptions) {
    if (options?.client === undefined) throw new InvalidArgumentError('client', 'is required');
    if (typeof options.namespace !== 'string' || options.namespace === '') {
      throw new InvalidArgumentError('namespace', 'must be a non-empty string');
    }
    this.namespace = options.namespace;
    this.#client = toClient(options.client);
    this.#custom = customApi(this.#client);
  }

  /**
   * Creates the cluster's StorageClass `name`, of a provisioner nothing serves
   * (`example.com/none`): a class for a StorageMap to map to.
   */
  async createStorageClass(name: string): Promise<void> {
    const body: V1StorageClass = { metadata: { name }, provisioner: 'example.com/none' };
    await this.#client.create('storage.k8s.io/v1/storageclasses', body);
  }

  /** client-node's custom object coordinates of `kind` in the namespace (`group`, `version`, `plural`, `namespace`). */
  path(kind: ForkliftKind): { group: string; version: string; plural: string; namespace: string } {
    return { group: GROUP, version: VERSION, plural: PLURALS[kind], namespace: this.namespace };
  }

  /** Creates object `name` of `kind` with `spec`; resolves to it as created. */
  create(kind: ForkliftKind, name: string, spec: object): Promise<object> {
    return this.#custom.createNamespacedCustomObject({
      ...this.path(kind),
      body: { apiVersion: API_VERSION, kind, metadata: { name }, spec },
    });
  }

  /** Reads object `name` of `kind`, typed by the caller. */
  async read<T>(kind: ForkliftKind, name: string): Promise<T> {
    return (await this.#custom.getNamespacedCustomObject({ ...this.path(kind), name })) as T;
  }

  /** Lists the objects of `kind` in the namespace, typed by the caller. */
  async list<T>(kind: ForkliftKind): Promise<T[]> {
    return (await this.#custom.listNamespacedCustomObject(this.path(kind))).items as T[];
  }

  /**
   * Gives object `name` of `kind` the status its own controller writes once it finds nothing
   * wrong: a `Ready` condition and `observedGeneration: 1` (a merge patch of the status).
   */
  async markReady(kind: ForkliftKind, name: string): Promise<void> {
    const status = {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          category: 'Required',
          lastTransitionTime: new Date().toISOString().replace(/\.\d+Z/, 'Z'),
        },
      ],
      observedGeneration: 1,
    };
    await this.#custom.patchNamespacedCustomObjectStatus({
      ...this.path(kind),
      name,
      body: { status },
    });
  }

  /**
   * Creates the source Provider (`sourceName`, default `src`), the destination Provider
   * `host` (`openshift`, the local cluster), NetworkMap `net` (each of `networks` to the pod
   * network) and StorageMap `sto` (each of `datastores` to `storageClass`) between them.
   */
  async createProvidersAndMaps(options: ProvidersAndMapsOptions): Promise<void> {
    const sourceName = options.sourceName ?? 'src';
    const provider = { source: { name: sourceName }, destination: { name: 'host' } };
    const create = async (kind: ForkliftKind, name: string, spec: object) => {
      await this.create(kind, name, spec);
      if (options.ready) await this.markReady(kind, name);
    };
    await create('Provider', sourceName, options.source);
    await create('Provider', 'host', { type: 'openshift' });
    await create('NetworkMap', 'net', {
      provider,
      map: (options.networks ?? ['net-1']).map((id) => ({
        source: { id },
        destination: { type: 'pod' },
      })),
    });
    await create('StorageMap', 'sto', {
      provider,
      map: (options.datastores ?? ['ds-1']).map((id) => ({
        source: { id },
        destination: { storageClass: options.storageClass },
      })),
    });
    this.#sourceName = sourceName;
  }

  /**
   * Creates Plan `name` from the Providers and maps of
   * {@link PlanFixture.createProvidersAndMaps}: `spec` gives the target namespace, the VMs
   * and the rest; `map` defaults to `net` and `sto`.
   */
  createPlan(name: string, spec: PlanFixtureSpec): Promise<object> {
    return this.create('Plan', name, {
      provider: { source: { name: this.#sourceName }, destination: { name: 'host' } },
      map: { network: { name: 'net' }, storage: { name: 'sto' } },
      ...spec,
    });
  }
}
