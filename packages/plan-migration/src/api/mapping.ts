//! NetworkMap and StorageMap: how source networks and storage map to the destination.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { type Static, Type } from 'typebox';
import { ConditionSchema } from './condition.js';
import { RefSchema } from './ref.js';
import { stringEnum } from './string-enum.js';

const ProviderPairSchema = Type.Object({
  source: Type.Object({ namespace: Type.Optional(Type.String()), name: Type.String() }),
  destination: Type.Object({ namespace: Type.Optional(Type.String()), name: Type.String() }),
});

/** `NetworkMap.spec.map[]`: a source network and where it goes (`pod`, `multus` or `ignored`). */
export const NetworkPairSchema = Type.Object({
  source: RefSchema,
  destination: Type.Object({
    type: stringEnum(['pod', 'multus', 'ignored']),
    namespace: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
  }),
});

/** `StorageMap.spec.map[]`: a source datastore and its destination storage class. */
export const StoragePairSchema = Type.Object({
  source: RefSchema,
  destination: Type.Object({
    storageClass: Type.String({ minLength: 1 }),
    accessMode: Type.Optional(stringEnum(['ReadWriteOnce', 'ReadWriteMany', 'ReadOnlyMany'])),
    volumeMode: Type.Optional(stringEnum(['Filesystem', 'Block'])),
  }),
});

/** `NetworkMap.spec`. */
export const NetworkMapSpecSchema = Type.Object({
  provider: ProviderPairSchema,
  map: Type.Array(NetworkPairSchema),
});
/** `StorageMap.spec`. */
export const StorageMapSpecSchema = Type.Object({
  provider: ProviderPairSchema,
  map: Type.Array(StoragePairSchema),
});
/** The status of either map. */
export const MapStatusSchema = Type.Object({
  observedGeneration: Type.Optional(Type.Integer()),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
});

/** A network pair. */
export type NetworkPair = Static<typeof NetworkPairSchema>;
/** A storage pair. */
export type StoragePair = Static<typeof StoragePairSchema>;
/** `NetworkMap.spec` as a type. */
export type NetworkMapSpec = Static<typeof NetworkMapSpecSchema>;
/** `StorageMap.spec` as a type. */
export type StorageMapSpec = Static<typeof StorageMapSpecSchema>;
/** A map's status. */
export type MapStatus = Static<typeof MapStatusSchema>;

/** A NetworkMap custom resource. */
export interface NetworkMap {
  apiVersion?: string;
  kind?: string;
  metadata: Wire<V1ObjectMeta>;
  spec: NetworkMapSpec;
  status?: MapStatus;
}

/** A StorageMap custom resource. */
export interface StorageMap {
  apiVersion?: string;
  kind?: string;
  metadata: Wire<V1ObjectMeta>;
  spec: StorageMapSpec;
  status?: MapStatus;
}
