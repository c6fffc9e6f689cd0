//! The status write every resource controller shares: staged conditions, observedGeneration, a merge patch under optimistic locking.

import type { Clock } from '@ctrlkit/core';
import { DEFAULT_RETRY, patchStatus, retryOnConflict } from '@ctrlkit/runtime';
import type { Client } from '@ctrlkit/runtime/client';
import type { Condition } from '../../api/condition.js';
import { type Conditions, conditionsOf } from '../../conditions.js';
import { type ApiGroup, apiVersionOf, GROUP, PLURALS, VERSION } from '../../crds.js';
import { type CustomApi, customApi, unlessNotFound } from '../../internal/kube-api.js';

/** A forklift resource with conditions in its status. */
export interface ConditionedResource {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; generation?: number; resourceVersion?: string };
  status?: { observedGeneration?: number; conditions?: Condition[]; phase?: string };
}

/** Reads and writes one kind's status. */
export class ConditionStatusWriter {
  readonly #client: Client;
  readonly #custom: CustomApi;
  readonly #kind: keyof typeof PLURALS;
  readonly #clock: Clock;
  readonly #group: ApiGroup;
  /** Status writes made. */
  writes = 0;

  constructor(client: Client, kind: keyof typeof PLURALS, clock: Clock, group: ApiGroup = GROUP) {
    this.#client = client;
    this.#custom = customApi(client);
    this.#kind = kind;
    this.#clock = clock;
    this.#group = group;
  }

  /** The object as stored (not the cache: the status built on must be the last written); undefined when gone. */
  read<T extends ConditionedResource>(namespace: string, name: string): Promise<T | undefined> {
    const object = this.#custom.getNamespacedCustomObject({
      group: this.#group,
      version: VERSION,
      plural: PLURALS[this.#kind],
      namespace,
      name,
    });
    return unlessNotFound(object as Promise<T>);
  }

  /**
   * Reads the object, stages its conditions, lets `compute` set them, ends staging, sets
   * `observedGeneration`, and writes the status when it changed: a merge patch carrying the
   * resourceVersion read, retried on conflict from a fresh read. `keep` names condition types
   * owned by another writer: they are left exactly as stored. Returns the object as computed
   * (undefined when it is gone).
   */
  async reconcile<T extends ConditionedResource>(
    namespace: string,
    name: string,
    compute: (object: T, conditions: Conditions) => Promise<void> | void,
    keep: (type: string) => boolean = () => false,
  ): Promise<T | undefined> {
    return retryOnConflict(DEFAULT_RETRY, async () => {
      const object = await this.read<T>(namespace, name);
      if (object === undefined) return undefined;
      const before = JSON.stringify(object.status ?? {});
      object.status = structuredClone(object.status ?? {});
      const conditions = conditionsOf(object.status, this.#clock);
      conditions.beginStagingConditions();
      conditions.stageCondition(...conditions.list.map((c) => c.type).filter(keep));
      await compute(object, conditions);
      conditions.endStagingConditions();
      if (object.metadata.generation !== undefined) {
        object.status.observedGeneration = object.metadata.generation;
      }
      if (JSON.stringify(object.status) === before) return object;
      this.writes++;
      await patchStatus(
        this.#client,
        {
          ...object,
          apiVersion: object.apiVersion ?? apiVersionOf(this.#group),
          kind: object.kind ?? this.#kind,
        },
        object.status as Record<string, unknown>,
        { optimisticLock: true },
      );
      return object;
    });
  }
}
