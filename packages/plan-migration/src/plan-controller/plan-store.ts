//! The Plans and Migrations on the API server: a Plan read fresh, its status PUT, a status merge patch, a Migration read.

import type { Migration } from '../api/migration.js';
import type { Plan } from '../api/plan.js';
import { type ApiGroup, PLURALS, VERSION } from '../crds.js';
import { type CustomApi, unlessNotFound } from '../internal/kube-api.js';

/**
 * Reads and writes of the Plan controller that go to the API server rather than the
 * informer caches, in one API group.
 */
export class PlanStore {
  readonly #custom: CustomApi;
  readonly #group: ApiGroup;

  constructor(custom: CustomApi, group: ApiGroup) {
    this.#custom = custom;
    this.#group = group;
  }

  /** The Plan as the API server has it now (Forklift's APIReader); undefined when it is gone. */
  readPlan(namespace: string, name: string): Promise<Plan | undefined> {
    return this.#read<Plan>('Plan', namespace, name);
  }

  /** The Migration as the API server has it now; undefined when it is gone. */
  readMigration(namespace: string, name: string): Promise<Migration | undefined> {
    return this.#read<Migration>('Migration', namespace, name);
  }

  /** PUTs `plan`'s status with the resourceVersion it carries: a conflict throws. */
  async replacePlanStatus(plan: Plan): Promise<void> {
    const { namespace = '', name = '' } = plan.metadata;
    await this.#custom.replaceNamespacedCustomObjectStatus({
      ...this.#path('Plan'),
      namespace,
      name,
      body: plan,
    });
  }

  /** Merge-patches the status of object `name` of `kind`. */
  async patchStatus(
    kind: keyof typeof PLURALS,
    namespace: string,
    name: string,
    status: unknown,
  ): Promise<void> {
    await this.#custom.patchNamespacedCustomObjectStatus({
      ...this.#path(kind),
      namespace,
      name,
      body: { status },
    });
  }

  #read<T>(kind: keyof typeof PLURALS, namespace: string, name: string) {
    const object = this.#custom.getNamespacedCustomObject({ ...this.#path(kind), namespace, name });
    return unlessNotFound(object as Promise<T>);
  }

  #path(kind: keyof typeof PLURALS) {
    return { group: this.#group, version: VERSION, plural: PLURALS[kind] };
  }
}
