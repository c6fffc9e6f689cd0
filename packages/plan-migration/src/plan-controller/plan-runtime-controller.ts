//! The Plan controller's runtime Controller and its Plan and Migration informers: the manager's, or a shard's.

import { InvalidArgumentError } from '@ctrlkit/core';
import { Controller, type ControllerOptions, type SharedInformerFactory } from '@ctrlkit/runtime';
import { predicateFuncs } from '@ctrlkit/runtime/controller';
import type { GroupVersionResource, SharedIndexInformer } from '@ctrlkit/runtime/informers';
import type { Shard } from '@ctrlkit/runtime/sharding';
import type { Migration } from '../api/migration.js';
import type { Plan } from '../api/plan.js';
import type { PLURALS } from '../crds.js';
import { planPredicate } from '../watches.js';

/** What {@link planRuntimeController} builds from. */
export interface PlanRuntimeControllerInput {
  shard: Shard | undefined;
  factory: SharedInformerFactory;
  gvr: (kind: keyof typeof PLURALS) => GroupVersionResource;
  controller: ControllerOptions;
}

/** The controller, watching Plans (new generations and deletions), and the Migration informer. */
export interface PlanRuntimeController {
  controller: Controller;
  plans: SharedIndexInformer<Plan>;
  migrations: SharedIndexInformer<Migration>;
}

/**
 * Builds the Plan controller's runtime Controller: on the factory's informers, or with a
 * shard, on the shard's (only its Plans and Migrations) as a controller the shard runs and
 * which acknowledges drains; there every Plan the shard's cache gains is reconciled. A ring without the Plan or Migration resource is an
 * `InvalidArgumentError` naming `shard`.
 */
export function planRuntimeController(input: PlanRuntimeControllerInput): PlanRuntimeController {
  const { shard, factory, gvr } = input;
  // New generations, and deletions: a Plan being deleted is cleaned up (its finalizer).
  const filter = (p: Plan) => planPredicate(p) || p.metadata.deletionTimestamp !== undefined;
  if (shard === undefined) {
    const plans = factory.forResource<Plan>(gvr('Plan'));
    const controller = new Controller(input.controller);
    controller.watch(plans, { filter });
    return { controller, plans, migrations: factory.forResource<Migration>(gvr('Migration')) };
  }
  try {
    const plans = shard.informer<Plan>(gvr('Plan')) as unknown as SharedIndexInformer<Plan>;
    const migrations = shard.informer<Migration>(
      gvr('Migration'),
    ) as unknown as SharedIndexInformer<Migration>;
    // A Plan added to the shard's cache (labelled, or moved here from another shard) is
    // reconciled whatever its generation: a Plan moved mid-migration resumes on this shard.
    const controller = shard.controller({
      ...input.controller,
      resource: gvr('Plan'),
      watch: {
        predicates: [
          predicateFuncs({
            update: ({ objectNew }) => filter(objectNew as unknown as Plan),
            delete: ({ object }) => filter(object as unknown as Plan),
          }),
        ],
      },
    });
    return { controller, plans, migrations };
  } catch (error) {
    if (!InvalidArgumentError.isInstance(error)) throw error;
    throw new InvalidArgumentError('shard', error.message);
  }
}
