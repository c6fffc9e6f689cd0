//! The status a Plan's active snapshot gives its Migration.

import type { Migration } from '../api/migration.js';
import type { Plan } from '../api/plan.js';
import { ConditionType } from '../condition-types.js';
import { MIGRATION_VALIDATION_CONDITIONS } from '../controllers/migration-controller.js';
import { activeSnapshot } from '../migration-runner.js';

/** Where a Migration's mirrored status goes, and what it is. */
export interface MigrationMirror {
  namespace: string;
  name: string;
  status: unknown;
}

/**
 * The active snapshot mirrored to its Migration: started/completed, conditions (Executing →
 * Running), VMs; the conditions the MigrationController owns are kept. Undefined when the
 * plan has no active snapshot or its Migration (by UID) is gone.
 */
export function migrationMirror(
  plan: Plan,
  getMigration: (namespace: string, name: string) => Migration | undefined,
): MigrationMirror | undefined {
  const snapshot = activeSnapshot(plan);
  if (snapshot === undefined || !snapshot.migration.name) return undefined;
  const migration = getMigration(snapshot.migration.namespace, snapshot.migration.name);
  if (migration === undefined || migration.metadata.uid !== snapshot.migration.uid)
    return undefined;
  const status = {
    ...(plan.status?.migration?.started && { started: plan.status.migration.started }),
    ...(plan.status?.migration?.completed && { completed: plan.status.migration.completed }),
    conditions: [
      ...(snapshot.conditions ?? []).map((c) =>
        c.type === ConditionType.Executing ? { ...c, type: ConditionType.Running } : c,
      ),
      // The MigrationController's own conditions stay as it wrote them.
      ...(migration.status?.conditions ?? []).filter(
        (c) =>
          MIGRATION_VALIDATION_CONDITIONS.includes(c.type) &&
          !(snapshot.conditions ?? []).some((s) => s.type === c.type),
      ),
    ],
    vms: plan.status?.migration?.vms ?? [],
  };
  return { namespace: snapshot.migration.namespace, name: snapshot.migration.name, status };
}
