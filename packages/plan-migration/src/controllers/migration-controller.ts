//! The Migration controller: plan reference and cancel-list validation, the Ready condition (Forklift's migration controller, less the mirror).

import { InvalidArgumentError } from '@ctrlkit/core';
import { DEFAULT_RETRY, retryOnConflict } from '@ctrlkit/runtime';
import { setControllerReference, setOwnerReference } from '@ctrlkit/runtime/controller';
import {
  DeletedFinalStateUnknown,
  type Lister,
  splitMetaNamespaceKey,
} from '@ctrlkit/runtime/informers';
import type { Inventory } from '../adapter.js';
import type { Migration } from '../api/migration.js';
import type { Plan } from '../api/plan.js';
import type { Provider } from '../api/provider.js';
import { refString } from '../api/ref.js';
import { ConditionType, Reason } from '../condition-types.js';
import { Category, type NewCondition, READY, True } from '../conditions.js';
import { apiVersionOf, VERSION } from '../crds.js';
import { hasReady } from '../validation/ready.js';
import { ResourceController } from './internal/resource-controller.js';
import { forkliftResource } from './internal/resources.js';
import type { ResourceControllerOptions } from './resource-controller-options.js';

/**
 * The Migration conditions this controller owns. The PlanController mirrors the plan's
 * snapshot into the rest of `Migration.status` and keeps these as they are.
 */
export const MIGRATION_VALIDATION_CONDITIONS: readonly string[] = Object.freeze([
  ConditionType.PlanNotValid,
  ConditionType.PlanNotReady,
  ConditionType.VMNotFound,
  ConditionType.VMNotUnique,
  READY,
]);

/** Options of {@link MigrationController}. */
export interface MigrationControllerOptions extends ResourceControllerOptions {
  /**
   * The inventory of a source provider, to resolve `spec.cancel`; undefined when its type
   * is not supported (the cancel list is then not checked). Required.
   */
  inventory: (provider: Provider) => Inventory | undefined;
}

/** What {@link validateMigration} reads. */
export interface MigrationValidationInput {
  migration: Migration;
  /** The Plan `spec.plan` names, or undefined when it does not exist. */
  plan: Plan | undefined;
  /** The inventory of the plan's source provider, or undefined. */
  inventory: Inventory | undefined;
}

/**
 * The validation conditions of a Migration, as upstream: `PlanNotValid` (Critical, NotSet or
 * NotFound); `PlanNotReady` (Critical) without the plan's Ready condition (nothing else is
 * checked then); `VMNotFound` (Warn, NotFound) and `VMNotUnique` (Warn, Ambiguous) with the
 * unresolved `spec.cancel` refs as items; `Ready` when nothing blocks.
 */
export async function validateMigration(input: MigrationValidationInput): Promise<NewCondition[]> {
  const { migration, plan, inventory } = input;
  const planNotValid = (reason: string): NewCondition[] => [
    {
      type: ConditionType.PlanNotValid,
      status: True,
      reason,
      category: Category.Critical,
      message: 'The `plan` is not valid.',
    },
  ];
  if (!migration.spec.plan?.name) return planNotValid(Reason.NotSet);
  if (plan === undefined) return planNotValid(Reason.NotFound);
  if (!hasReady(plan)) {
    return [
      {
        type: ConditionType.PlanNotReady,
        status: True,
        reason: Reason.NotFound,
        category: Category.Critical,
        message: 'The `plan` does not have Ready condition.',
      },
    ];
  }
  const conditions: NewCondition[] = [];
  if (inventory !== undefined) {
    const notFound: string[] = [];
    const ambiguous: string[] = [];
    let vms: Awaited<ReturnType<Inventory['listVMs']>> | undefined;
    for (const ref of migration.spec.cancel ?? []) {
      if (ref.id) {
        if ((await inventory.findVM(ref)) === undefined) notFound.push(refString(ref));
        continue;
      }
      vms ??= await inventory.listVMs();
      const matches = ref.name ? vms.filter((vm) => vm.name === ref.name).length : 0;
      if (matches === 0) notFound.push(refString(ref));
      else if (matches > 1) ambiguous.push(refString(ref));
    }
    if (notFound.length > 0) {
      conditions.push({
        type: ConditionType.VMNotFound,
        status: True,
        reason: Reason.NotFound,
        category: Category.Warn,
        message: 'VM not found.',
        items: notFound,
      });
    }
    if (ambiguous.length > 0) {
      conditions.push({
        type: ConditionType.VMNotUnique,
        status: True,
        reason: Reason.Ambiguous,
        category: Category.Warn,
        message: 'VM reference is ambiguous.',
        items: ambiguous,
      });
    }
  }
  conditions.push({
    type: READY,
    status: True,
    category: Category.Required,
    message: 'The migration is ready.',
  });
  return conditions;
}

/**
 * Reconciles Migrations: makes the Plan an owner of the Migration (same namespace), then
 * {@link validateMigration}, written as only the
 * {@link MIGRATION_VALIDATION_CONDITIONS} (the rest of `status`, which the PlanController
 * mirrors from the plan, is kept) plus `observedGeneration`. A completed Migration is left
 * alone, as upstream. Watches Migrations and the Plans they name (a plan becoming Ready
 * revalidates its Migrations).
 */
export class MigrationController extends ResourceController {
  readonly #inventory: MigrationControllerOptions['inventory'];
  readonly #migrations: Lister<Migration>;
  readonly #plans: Lister<Plan>;
  readonly #providers: Lister<Provider>;

  constructor(options: MigrationControllerOptions) {
    super('Migration', 'migration', options);
    if (typeof options.inventory !== 'function')
      throw new InvalidArgumentError('inventory', 'must be a function');
    this.#inventory = options.inventory;
    this.#migrations = this.factory.lister<Migration>(forkliftResource('Migration', this.group));
    this.#plans = this.factory.lister<Plan>(forkliftResource('Plan', this.group));
    this.#providers = this.factory.lister<Provider>(forkliftResource('Provider', this.group));
    this.controller.watch(this.factory.forResource<Plan>(forkliftResource('Plan', this.group)), {
      mapToKeys: (event) => {
        const plan = DeletedFinalStateUnknown.isInstance(event) ? (event.obj as Plan) : event;
        return this.#migrations
          .list()
          .filter(
            (m) =>
              m.spec.plan?.name === plan.metadata.name &&
              (m.spec.plan.namespace || m.metadata.namespace) === plan.metadata.namespace,
          )
          .map((m) => `${m.metadata.namespace}/${m.metadata.name}`);
      },
    });
  }

  protected async reconcile(key: string): Promise<undefined> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.#migrations.namespace(namespace).get(name);
    if (cached === undefined) return undefined;
    await this.#setOwnerReference(cached);
    if (cached.status?.completed) return undefined;
    const owned = (type: string) => MIGRATION_VALIDATION_CONDITIONS.includes(type);
    await this.writer.reconcile<Migration>(
      namespace,
      name,
      async (migration, cnd) => {
        if (migration.status?.completed) {
          cnd.stageCondition(...cnd.list.map((c) => c.type));
          return;
        }
        const ref = migration.spec.plan;
        const plan = ref?.name
          ? this.#plans.namespace(ref.namespace || namespace).get(ref.name)
          : undefined;
        const sourceRef = plan?.spec.provider?.source;
        const provider = sourceRef?.name
          ? this.#providers
              .namespace(sourceRef.namespace || plan?.metadata.namespace || '')
              .get(sourceRef.name)
          : undefined;
        cnd.setCondition(
          ...(await validateMigration({
            migration,
            plan,
            inventory: provider ? this.#inventory(provider) : undefined,
          })),
        );
      },
      (type) => !owned(type),
    );
    return undefined;
  }

  /**
   * Makes the Plan the controller owner of the Migration (as upstream makes it an owner, for
   * Migrations created by hand or a CLI; the controller flag lets a sharded ring keep a
   * Migration on its Plan's shard), or a plain owner when another object controls it, with
   * a merge patch carrying the resourceVersion read; skipped when the plan is not found, or
   * lives in another namespace (owner references cannot cross namespaces).
   */
  async #setOwnerReference(cached: Migration): Promise<void> {
    const ref = cached.spec.plan;
    const namespace = cached.metadata.namespace ?? '';
    if (!ref?.name || (ref.namespace && ref.namespace !== namespace)) return;
    const plan = this.#plans.namespace(namespace).get(ref.name);
    const uid = plan?.metadata.uid;
    if (plan === undefined || uid === undefined) return;
    // Done when the Plan controls it, or owns it and another object controls it.
    const owned = (m: Migration) => {
      const refs = m.metadata.ownerReferences ?? [];
      return refs.some((o) => o.uid === uid) && refs.some((o) => o.controller === true);
    };
    if (owned(cached)) return;
    await retryOnConflict(DEFAULT_RETRY, async () => {
      const migration = await this.writer.read<Migration>(namespace, cached.metadata.name ?? '');
      if (migration === undefined || owned(migration)) return;
      const owner = { metadata: structuredClone(migration.metadata) };
      const gvk = { group: this.group, version: VERSION, kind: 'Plan' };
      const controlled = owner.metadata.ownerReferences?.some((o) => o.controller === true);
      if (controlled) setOwnerReference(plan, owner, { gvk });
      // No blockOwnerDeletion: as the plain reference, it needs no rights on plans/finalizers.
      else setControllerReference(plan, owner, { gvk, blockOwnerDeletion: false });
      // A merge patch carrying the resourceVersion read: 409 if the Migration changed meanwhile.
      await this.client.patch(
        forkliftResource('Migration', this.group),
        migration.metadata.name ?? '',
        {
          apiVersion: apiVersionOf(this.group),
          kind: 'Migration',
          metadata: {
            resourceVersion: migration.metadata.resourceVersion ?? '',
            ownerReferences: owner.metadata.ownerReferences ?? [],
          },
        },
        { namespace },
      );
    });
  }
}
