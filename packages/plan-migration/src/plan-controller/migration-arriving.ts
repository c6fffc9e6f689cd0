//! Sharded: a Plan whose active Migration has not yet followed it into this shard's cache waits for it.

import type { Indexer } from '@ctrlkit/runtime/informers';
import type { Migration } from '../api/migration.js';
import type { Plan } from '../api/plan.js';
import { activeSnapshot } from '../migration-runner.js';
import type { PlanStore } from './plan-store.js';

/**
 * Whether the Migration of `plan`'s active snapshot exists (same UID, not being deleted) but
 * is not yet in the shard's Migration cache (it follows its Plan, relabelled apart from it).
 * Reconciling then would take it for deleted and cancel the migration, so the plan waits.
 */
export async function migrationArriving(
  plan: Plan,
  cache: Pick<Indexer<Migration>, 'getByKey'>,
  store: PlanStore,
): Promise<boolean> {
  const ref = activeSnapshot(plan)?.migration;
  if (ref?.name === undefined || cache.getByKey(`${ref.namespace}/${ref.name}`)) return false;
  const live = await store.readMigration(ref.namespace ?? '', ref.name);
  return (
    live !== undefined &&
    live.metadata.uid === ref.uid &&
    live.metadata.deletionTimestamp === undefined
  );
}
