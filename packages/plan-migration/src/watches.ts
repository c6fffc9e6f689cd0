//! Watch predicates and mappings of the plan controller (Forklift's plan/predicate.go and RequestForMigration).

import type { Migration } from './api/migration.js';
import type { Plan } from './api/plan.js';

/** An object with the metadata the mappings read. */
interface Named {
  metadata: { namespace?: string; name?: string; generation?: number };
  status?: { observedGeneration?: number };
}

/** A Plan event matters when the Plan's generation is not yet observed (PlanPredicate.Update). */
export function planPredicate(plan: Plan): boolean {
  return (plan.status?.observedGeneration ?? 0) < (plan.metadata.generation ?? 0);
}

/** A Provider, map or Hook event matters once its controller has observed its generation. */
export function referencePredicate(obj: Named): boolean {
  return (obj.status?.observedGeneration ?? 0) === (obj.metadata.generation ?? 0);
}

/** A Migration update matters when its generation changed (create and delete always do). */
export function migrationPredicate(old: Migration | undefined, current: Migration): boolean {
  return old === undefined || old.metadata.generation !== current.metadata.generation;
}

/** The Plan key (`namespace/name`) a Migration belongs to (RequestForMigration). */
export function requestForMigration(migration: Migration): string[] {
  const name = migration.spec?.plan?.name;
  if (!name) return [];
  return [`${migration.spec.plan.namespace || migration.metadata.namespace}/${name}`];
}

/** Which reference of a plan an object is. */
export type ReferenceKind = 'Provider' | 'NetworkMap' | 'StorageMap' | 'Hook';

/** Keys of the plans that reference `obj` of `kind` (references without a namespace default to the plan's). */
export function plansReferencing(
  kind: ReferenceKind,
  obj: Named,
  plans: readonly Plan[],
): string[] {
  const ns = obj.metadata.namespace ?? '';
  const name = obj.metadata.name ?? '';
  const is = (plan: Plan, ref: { namespace?: string; name?: string } | undefined) =>
    ref?.name === name && (ref.namespace || plan.metadata.namespace) === ns;
  const refsOf = (plan: Plan): Array<{ namespace?: string; name?: string } | undefined> => {
    if (kind === 'Provider') return [plan.spec.provider.source, plan.spec.provider.destination];
    if (kind === 'NetworkMap') return [plan.spec.map.network];
    if (kind === 'StorageMap') return [plan.spec.map.storage];
    return plan.spec.vms.flatMap((vm) => (vm.hooks ?? []).map((h) => h.hook));
  };
  return plans
    .filter((plan) => refsOf(plan).some((ref) => is(plan, ref)))
    .map((plan) => `${plan.metadata.namespace}/${plan.metadata.name}`);
}
