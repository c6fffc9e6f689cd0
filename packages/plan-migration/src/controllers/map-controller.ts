//! The NetworkMap and StorageMap controllers: validate references, write the Ready condition (Forklift's map controllers).

import type { Wire } from '@ctrlkit/runtime/client';
import {
  DeletedFinalStateUnknown,
  type Lister,
  splitMetaNamespaceKey,
} from '@ctrlkit/runtime/informers';
import type { V1StorageClass } from '@kubernetes/client-node';
import type { NetworkMap, StorageMap } from '../api/mapping.js';
import type { Provider } from '../api/provider.js';
import type { NewCondition } from '../conditions.js';
import { ResourceController } from './internal/resource-controller.js';
import { forkliftResource } from './internal/resources.js';
import { validateNetworkMap, validateStorageMap } from './map-validation.js';
import type { ProviderLookup } from './provider-pair.js';
import type { ResourceControllerOptions } from './resource-controller-options.js';

/** Options of {@link NetworkMapController} and {@link StorageMapController}. */
export type MapControllerOptions = ResourceControllerOptions;

/** The storage classes resource (the StorageMap's destinations on the host cluster). */
export const STORAGE_CLASSES = {
  group: 'storage.k8s.io',
  version: 'v1',
  resource: 'storageclasses',
} as const;

type AnyMap = NetworkMap | StorageMap;

/** What the two map controllers share: informers, the status writer, provider lookups. */
abstract class MapController<M extends AnyMap> extends ResourceController {
  readonly #providers: Lister<Provider>;

  constructor(kind: 'NetworkMap' | 'StorageMap', options: MapControllerOptions) {
    super(kind, kind.toLowerCase(), options);
    const mapLister = this.factory.lister<M>(forkliftResource(kind, this.group));
    this.#providers = this.factory.lister<Provider>(forkliftResource('Provider', this.group));
    // A provider's change (its Ready condition) revalidates the maps that name it.
    this.controller.watch(
      this.factory.forResource<Provider>(forkliftResource('Provider', this.group)),
      {
        mapToKeys: (p) =>
          mapLister
            .list()
            .filter((m) => references(m, live(p)))
            .map((m) => `${m.metadata.namespace}/${m.metadata.name}`),
      },
    );
  }

  protected abstract validate(map: M, providers: ProviderLookup): NewCondition[];

  protected async reconcile(key: string): Promise<undefined> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const lookup: ProviderLookup = (ns, n) => this.#providers.namespace(ns).get(n);
    await this.writer.reconcile<M>(namespace, name, (map, cnd) => {
      cnd.setCondition(...this.validate(map, lookup));
    });
    return undefined;
  }
}

/** The object of an event, unwrapping a deletion tombstone. */
function live<T>(obj: T | DeletedFinalStateUnknown<T>): T {
  return DeletedFinalStateUnknown.isInstance(obj) ? (obj.obj as T) : (obj as T);
}

function references(map: AnyMap, provider: Provider): boolean {
  const ns = map.metadata.namespace;
  return [map.spec.provider?.source, map.spec.provider?.destination].some(
    (ref) =>
      ref?.name === provider.metadata.name && (ref.namespace || ns) === provider.metadata.namespace,
  );
}

/**
 * Reconciles NetworkMaps: {@link validateNetworkMap}, then `status.conditions` and
 * `observedGeneration`. Watches NetworkMaps and the Providers they name.
 */
export class NetworkMapController extends MapController<NetworkMap> {
  constructor(options: MapControllerOptions) {
    super('NetworkMap', options);
  }

  protected validate(map: NetworkMap, providers: ProviderLookup): NewCondition[] {
    return validateNetworkMap(map, providers);
  }
}

/**
 * Reconciles StorageMaps: {@link validateStorageMap} against the storage classes of the
 * host cluster, then `status.conditions` and `observedGeneration`. Watches StorageMaps, the
 * Providers they name, and storage classes (every StorageMap is revalidated on a change).
 */
export class StorageMapController extends MapController<StorageMap> {
  readonly #classes: Lister<Wire<V1StorageClass>>;

  constructor(options: MapControllerOptions) {
    super('StorageMap', options);
    this.#classes = this.factory.lister<Wire<V1StorageClass>>(STORAGE_CLASSES);
    const maps = this.factory.lister<StorageMap>(forkliftResource('StorageMap', this.group));
    this.controller.watch(this.factory.forResource<Wire<V1StorageClass>>(STORAGE_CLASSES), {
      mapToKeys: () => maps.list().map((m) => `${m.metadata.namespace}/${m.metadata.name}`),
    });
  }

  protected validate(map: StorageMap, providers: ProviderLookup): NewCondition[] {
    return validateStorageMap(map, providers, (name) => this.#classes.get(name) !== undefined);
  }
}
