//! What enqueues a Plan besides its own new generations: the objects it references, its Migrations, and its deletion.

import type { Controller, SharedInformerFactory } from '@ctrlkit/runtime';
import {
  DeletedFinalStateUnknown,
  deletionHandlingMetaNamespaceKeyFunc,
  type GroupVersionResource,
  type SharedIndexInformer,
} from '@ctrlkit/runtime/informers';
import type { Migration } from '../api/migration.js';
import type { Plan } from '../api/plan.js';
import type { Provider } from '../api/provider.js';
import type { PLURALS } from '../crds.js';
import {
  migrationPredicate,
  plansReferencing,
  referencePredicate,
  requestForMigration,
} from '../watches.js';

/** What {@link watchPlanInputs} wires. */
export interface PlanWatchesInput {
  controller: Controller;
  factory: SharedInformerFactory;
  gvr: (kind: keyof typeof PLURALS) => GroupVersionResource;
  plans: SharedIndexInformer<Plan>;
  migrations: SharedIndexInformer<Migration>;
}

/**
 * Adds the Plan controller's other watches: Providers, maps and Hooks (once their own
 * controller observed them) enqueue the Plans referencing them; Migrations enqueue their
 * Plan on create, a new generation and delete (a delete cancels the active snapshot); a
 * Plan's delete is enqueued apart from the generation filter, to clean up its orphans.
 */
export function watchPlanInputs(input: PlanWatchesInput): void {
  const { controller, factory, gvr, plans, migrations } = input;
  const planList = () => plans.indexer.list();
  for (const kind of ['Provider', 'NetworkMap', 'StorageMap', 'Hook'] as const) {
    controller.watch(factory.forResource(gvr(kind)), {
      filter: (o) => referencePredicate(o as Provider),
      mapToKeys: (o) => plansReferencing(kind, o as Provider, planList()),
    });
  }
  const seen = new Map<string, number | undefined>();
  // Deletes always matter (they cancel the active snapshot); updates only with a new generation.
  migrations.addEventHandler({
    onDelete: (m) => {
      const live = DeletedFinalStateUnknown.isInstance(m) ? (m.obj as Migration) : m;
      seen.delete(live.metadata.uid ?? '');
      for (const key of requestForMigration(live)) controller.enqueue(key);
    },
  });
  controller.watch(migrations, {
    filter: (m) => {
      const key = m.metadata.uid ?? '';
      const old = seen.get(key);
      seen.set(key, m.metadata.generation);
      return migrationPredicate(
        old === undefined ? undefined : ({ metadata: { generation: old } } as Migration),
        m,
      );
    },
    mapToKeys: requestForMigration,
  });
  // Deletes of a plan are not filtered by generation: watch them apart to clean up orphans.
  plans.addEventHandler({
    onDelete: (p) => controller.enqueue(deletionHandlingMetaNamespaceKeyFunc(p)),
  });
}
