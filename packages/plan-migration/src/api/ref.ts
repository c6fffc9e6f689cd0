//! References: to a VM in a provider's inventory, and to a Kubernetes object.

import { type Static, Type } from 'typebox';

/** A VM (or other inventory object) in a source provider: by `id`, else by `name`. */
export const RefSchema = Type.Object({
  id: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  namespace: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
});
/** A reference into a provider's inventory. */
export type Ref = Static<typeof RefSchema>;

/** A namespaced Kubernetes object (`core.ObjectReference` reduced to what the plan uses). */
export const ObjectReferenceSchema = Type.Object({
  namespace: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
});
/** A reference to a Kubernetes object by namespace and name. */
export type ObjectReference = Static<typeof ObjectReferenceSchema>;

/** How a reference reads in condition items, exactly as Forklift's `Ref.String()`: `(type) id:<id> name:'<name>' `. */
export function refString(ref: Ref): string {
  const prefix = ref.type ? `(${ref.type})` : '';
  return `${prefix} id:${ref.id ?? ''} name:'${ref.name ?? ''}' `;
}
