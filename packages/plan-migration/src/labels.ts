//! The labels every destination puts on what it creates for a plan (Forklift's plan labeler).

/** Label of everything created for a plan: the Plan's UID. */
export const LABEL_PLAN = 'plan';
/** Label: the Plan's name. */
export const LABEL_PLAN_NAME = 'plan-name';
/** Label: the Plan's namespace. */
export const LABEL_PLAN_NAMESPACE = 'plan-namespace';
/** Label: the Migration's UID (dropped from lookups, so a new Migration finds older objects). */
export const LABEL_MIGRATION = 'migration';
/** Label: the source VM's id. */
export const LABEL_VM_ID = 'vmID';

/** What identifies the objects of one plan's VM, as {@link planVMLabels} takes it. */
export interface PlanLabelSource {
  plan: { metadata: { uid?: string; name?: string; namespace?: string } };
  migrationUID: string;
  vmID: string;
}

/** `plan`, `plan-name`, `plan-namespace`, `migration` and `vmID` of a plan's VM. */
export function planVMLabels({
  plan,
  migrationUID,
  vmID,
}: PlanLabelSource): Record<string, string> {
  return {
    [LABEL_MIGRATION]: migrationUID,
    [LABEL_PLAN]: plan.metadata.uid ?? '',
    [LABEL_PLAN_NAME]: plan.metadata.name ?? '',
    [LABEL_PLAN_NAMESPACE]: plan.metadata.namespace ?? '',
    [LABEL_VM_ID]: vmID,
  };
}

/** `labels` without `migration` (lookups for deletion, so a new Migration finds older objects). */
export function withoutMigration(labels: Record<string, string>): Record<string, string> {
  const { [LABEL_MIGRATION]: _, ...rest } = labels;
  return rest;
}

/** A label selector string (`k=v,k2=v2`) from a label set. */
export function labelSelector(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}
