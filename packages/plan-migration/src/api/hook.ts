//! The Hook resource: a container run before or after a VM's migration.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { type Static, Type } from 'typebox';
import { ConditionSchema } from './condition.js';

/** `Hook.spec`. */
export const HookSpecSchema = Type.Object({
  image: Type.String({ minLength: 1 }),
  playbook: Type.Optional(Type.String()),
  serviceAccount: Type.Optional(Type.String()),
  deadline: Type.Optional(Type.Integer({ minimum: 0 })),
});
/** `Hook.status`. */
export const HookStatusSchema = Type.Object({
  observedGeneration: Type.Optional(Type.Integer()),
  conditions: Type.Optional(Type.Array(ConditionSchema)),
});

/** `Hook.spec` as a type. */
export type HookSpec = Static<typeof HookSpecSchema>;
/** `Hook.status` as a type. */
export type HookStatus = Static<typeof HookStatusSchema>;

/** A Hook custom resource. */
export interface Hook {
  apiVersion?: string;
  kind?: string;
  metadata: Wire<V1ObjectMeta>;
  spec: HookSpec;
  status?: HookStatus;
}
