//! The schema of a condition (Forklift's pkg/lib/condition.Condition).

import { type Static, Type } from 'typebox';

/** One condition on a Plan, a snapshot, a VM or a Migration. */
export const ConditionSchema = Type.Object({
  type: Type.String({ minLength: 1 }),
  status: Type.Union([Type.Literal('True'), Type.Literal('False')]),
  reason: Type.Optional(Type.String()),
  category: Type.String(),
  message: Type.Optional(Type.String()),
  suggestion: Type.Optional(Type.String()),
  lastTransitionTime: Type.String({ format: 'date-time' }),
  durable: Type.Optional(Type.Boolean()),
  items: Type.Optional(Type.Array(Type.String())),
});

/** A condition (`lastTransitionTime` is RFC 3339 in whole seconds). */
export type Condition = Static<typeof ConditionSchema>;
