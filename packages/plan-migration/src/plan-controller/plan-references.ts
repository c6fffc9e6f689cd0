//! A Plan's Providers, maps and Hooks, as the shared informers' caches have them.

import type { SharedInformerFactory } from '@ctrlkit/runtime';
import type { GroupVersionResource } from '@ctrlkit/runtime/informers';
import type { Hook } from '../api/hook.js';
import type { NetworkMap, StorageMap } from '../api/mapping.js';
import type { Plan } from '../api/plan.js';
import type { Provider } from '../api/provider.js';
import type { PLURALS } from '../crds.js';
import type { PlanReferences } from '../validation/validation-input.js';

type Namespaced = { metadata: { namespace?: string } };
type Ref = { namespace?: string; name?: string } | undefined;

/**
 * Looks up what Plans reference in the informer caches of `factory` (never the API server):
 * the objects one Plan names, and every object a Plan can depend on.
 */
export class PlanReferenceCache {
  readonly #factory: SharedInformerFactory;
  readonly #gvr: (kind: keyof typeof PLURALS) => GroupVersionResource;

  constructor(
    factory: SharedInformerFactory,
    gvr: (kind: keyof typeof PLURALS) => GroupVersionResource,
  ) {
    this.#factory = factory;
    this.#gvr = gvr;
  }

  /** The source and destination Providers, the maps and a Hook lookup of `plan`; a reference not found is left out. */
  references(plan: Plan): PlanReferences {
    const get = <T extends Namespaced>(kind: keyof typeof PLURALS, ref: Ref) =>
      ref?.name
        ? this.#lister<T>(kind)
            .namespace(ref?.namespace || plan.metadata.namespace || '')
            .get(ref.name)
        : undefined;
    const refs: PlanReferences = {
      hook: (hns, hname) => get<Hook>('Hook', { namespace: hns, name: hname }),
    };
    const source = get<Provider>('Provider', plan.spec.provider?.source);
    const destination = get<Provider>('Provider', plan.spec.provider?.destination);
    const networkMap = get<NetworkMap>('NetworkMap', plan.spec.map?.network);
    const storageMap = get<StorageMap>('StorageMap', plan.spec.map?.storage);
    if (source) refs.source = source;
    if (destination) refs.destination = destination;
    if (networkMap) refs.networkMap = networkMap;
    if (storageMap) refs.storageMap = storageMap;
    return refs;
  }

  /** Every Provider, NetworkMap, StorageMap and Hook cached: what a Plan's blockers are read from. */
  dependencies(): Array<Provider | NetworkMap | StorageMap | Hook> {
    return [
      ...this.#lister<Provider>('Provider').list(),
      ...this.#lister<NetworkMap>('NetworkMap').list(),
      ...this.#lister<StorageMap>('StorageMap').list(),
      ...this.#lister<Hook>('Hook').list(),
    ];
  }

  #lister<T extends Namespaced>(kind: keyof typeof PLURALS) {
    return this.#factory.lister<T & Plan>(this.#gvr(kind)) as unknown as {
      list(): T[];
      namespace(ns: string): { get(name: string): T | undefined; list(): T[] };
    };
  }
}
