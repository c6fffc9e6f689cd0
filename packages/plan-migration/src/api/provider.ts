//! The Provider resource: a source or destination of VMs.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { type Static, Type } from 'typebox';
import { ConditionSchema } from './condition.js';
import { ObjectReferenceSchema } from './ref.js';
import { stringEnum } from './string-enum.js';

/** Provider types known to Forklift; `simulated` is ctrlkit's simulator. */
export const PROVIDER_TYPES = [
  'openshift',
  'vsphere',
  'ovirt',
  'openstack',
  'ova',
  'hyperv',
  'ec2',
  'simulated',
] as const;
/** A provider type. */
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** `Provider.spec`. */
export const ProviderSpecSchema = Type.Object({
  type: stringEnum(PROVIDER_TYPES),
  url: Type.Optional(Type.String()),
  secret: Type.Optional(ObjectReferenceSchema),
  settings: Type.Optional(Type.Record(Type.String(), Type.String())),
});

/** `Provider.status`. */
export const ProviderStatusSchema = Type.Object({
  phase: Type.Optional(Type.String()),
  observedGeneration: Type.Optional(Type.Integer()),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
});

/** `Provider.spec` as a type. */
export type ProviderSpec = Static<typeof ProviderSpecSchema>;
/** `Provider.status` as a type. */
export type ProviderStatus = Static<typeof ProviderStatusSchema>;

/** A Provider custom resource. */
export interface Provider {
  apiVersion?: string;
  kind?: string;
  metadata: Wire<V1ObjectMeta>;
  spec: ProviderSpec;
  status?: ProviderStatus;
}
