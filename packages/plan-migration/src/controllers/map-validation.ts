//! Validation of NetworkMaps and StorageMaps (Forklift's map/network and map/storage validation).

import type { NetworkMap, StorageMap } from '../api/mapping.js';
import { ResourceConditionType as C, Reason } from '../condition-types.js';
import { Category, type NewCondition, READY, True } from '../conditions.js';
import { isHost, type ProviderLookup, validateProviderPair } from './provider-pair.js';

const PROVIDER_CONDITIONS: readonly string[] = [
  C.SourceProviderNotValid,
  C.SourceProviderNotReady,
  C.DestinationProviderNotValid,
  C.DestinationProviderNotReady,
];

const critical = (type: string, reason: string, message: string, items?: string[]) => ({
  type,
  status: True,
  reason,
  category: Category.Critical,
  message,
  ...(items !== undefined && { items }),
});

const ready = (message: string): NewCondition => ({
  type: READY,
  status: True,
  category: Category.Required,
  message,
});

const blocked = (conditions: readonly NewCondition[]) =>
  conditions.some(
    (c) => c.status === True && (c.category === Category.Critical || c.category === Category.Error),
  );

/**
 * The conditions of a NetworkMap: the provider pair (validation stops on any of its
 * conditions); `SourceNetworkNotValid` (Critical, NotSet) for a source with neither id nor
 * name; `DestinationNetworkNotValid` (Critical) for a `multus` destination without a name
 * (NotSet) or namespace (Ambiguous, items `namespace/name`); then `Ready` when nothing blocks.
 * Caveat: the NetworkAttachmentDefinition itself is not looked up.
 */
export function validateNetworkMap(map: NetworkMap, providers: ProviderLookup): NewCondition[] {
  const pair = validateProviderPair(map.spec.provider, map.metadata.namespace ?? '', providers);
  if (pair.conditions.some((c) => PROVIDER_CONDITIONS.includes(c.type))) return pair.conditions;
  const conditions: NewCondition[] = [];
  const pairs = map.spec.map ?? [];
  if (pairs.some((p) => !p.source.id && !p.source.name)) {
    conditions.push(
      critical(
        C.SourceNetworkNotValid,
        Reason.NotSet,
        'Source network: either `ID` or `Name` required.',
      ),
    );
  }
  const multus = pairs.filter((p) => p.destination.type === 'multus').map((p) => p.destination);
  if (multus.some((d) => !d.name)) {
    conditions.push(
      critical(
        C.DestinationNetworkNotValid,
        Reason.NotSet,
        'Destination network (NAD): `name` required.',
      ),
    );
  }
  const ambiguous = multus
    .filter((d) => d.name && !d.namespace)
    .map((d) => `${d.namespace ?? ''}/${d.name}`);
  if (ambiguous.length > 0) {
    conditions.push(
      critical(
        C.DestinationNetworkNotValid,
        Reason.Ambiguous,
        'Destination network has ambiguous ref: `namespace` required.',
        ambiguous,
      ),
    );
  }
  if (!blocked(conditions)) conditions.push(ready('The network map is ready.'));
  return conditions;
}

/** Whether a storage class exists on the host cluster. */
export type StorageClassLookup = (name: string) => boolean;

/**
 * The conditions of a StorageMap: the provider pair (validation stops on any of its
 * conditions); `SourceStorageNotValid` (Critical, NotSet) for a source with neither id nor
 * name; `DestinationStorageNotValid` (Critical, NotFound, items the class names) for storage
 * classes missing from the host cluster (checked only when the destination is the host);
 * then `Ready` when nothing blocks.
 */
export function validateStorageMap(
  map: StorageMap,
  providers: ProviderLookup,
  storageClassExists: StorageClassLookup,
): NewCondition[] {
  const pair = validateProviderPair(map.spec.provider, map.metadata.namespace ?? '', providers);
  if (pair.conditions.some((c) => PROVIDER_CONDITIONS.includes(c.type))) return pair.conditions;
  const conditions: NewCondition[] = [];
  const pairs = map.spec.map ?? [];
  if (pairs.some((p) => !p.source.id && !p.source.name)) {
    conditions.push(
      critical(
        C.SourceStorageNotValid,
        Reason.NotSet,
        'Source storage: either `ID` or `Name` required.',
      ),
    );
  }
  if (isHost(pair.destination)) {
    const missing = [
      ...new Set(
        pairs.map((p) => p.destination.storageClass).filter((sc) => !storageClassExists(sc)),
      ),
    ];
    if (missing.length > 0) {
      conditions.push(
        critical(
          C.DestinationStorageNotValid,
          Reason.NotFound,
          'Destination storage not valid.',
          missing,
        ),
      );
    }
  }
  if (!blocked(conditions)) conditions.push(ready('The storage map is ready.'));
  return conditions;
}
