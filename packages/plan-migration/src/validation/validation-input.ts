//! What Plan validation reads: the Plan, the objects it references and the source's inventory.

import type { Clock } from '@ctrlkit/core';
import type { Inventory, Validator } from '../adapter.js';
import type { Hook } from '../api/hook.js';
import type { NetworkMap, StorageMap } from '../api/mapping.js';
import type { Plan } from '../api/plan.js';
import type { Provider } from '../api/provider.js';

/** The objects a Plan references, resolved by the caller (from informer caches). */
export interface PlanReferences {
  source?: Provider;
  destination?: Provider;
  networkMap?: NetworkMap;
  storageMap?: StorageMap;
  /** A Hook by namespace and name. */
  hook(namespace: string, name: string): Hook | undefined;
}

/** The source side the VM checks ask; absent when the source is not usable yet. */
export interface SourceAccess {
  inventory: Inventory;
  validator: Validator;
}

/** What `validatePlan` needs. */
export interface ValidationInput {
  plan: Plan;
  references: PlanReferences;
  /** The source's inventory and validator; undefined makes VM checks stop (as a nil provider upstream). */
  source?: SourceAccess;
  /** Whether a VM named `name` already exists in `namespace` on the destination. */
  destinationVMExists(namespace: string, name: string): Promise<boolean>;
  clock: Clock;
}
