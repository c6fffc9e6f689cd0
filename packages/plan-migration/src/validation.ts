//! Staged validation of a Plan: providers, namespace, maps, VMs and hooks (Forklift's plan/validation.go).

import type { Clock } from '@ctrlkit/core';
import type { Inventory, Validator } from './adapter.js';
import type { Hook } from './api/hook.js';
import type { NetworkMap, StorageMap } from './api/mapping.js';
import type { Plan } from './api/plan.js';
import type { Provider } from './api/provider.js';
import { ConditionType } from './condition-types.js';
import { conditionsOf } from './conditions.js';
import { validateHooks } from './validation/hook-checks.js';
import {
  validateDestinationProvider,
  validateMaps,
  validateMigrationType,
  validateNameTemplates,
  validateSourceProvider,
  validateTargetNamespace,
} from './validation/plan-checks.js';
import { validateVMs } from './validation/vm-checks.js';

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

/** What {@link validatePlan} needs. */
export interface ValidationInput {
  plan: Plan;
  references: PlanReferences;
  /** The source's inventory and validator; undefined makes VM checks stop (as a nil provider upstream). */
  source?: SourceAccess;
  /** Whether a VM named `name` already exists in `namespace` on the destination. */
  destinationVMExists(namespace: string, name: string): Promise<boolean>;
  clock: Clock;
}

/**
 * Validates the plan, setting conditions on `plan.status.conditions` (call it between
 * `beginStagingConditions` and `endStagingConditions`). Order and early stops as upstream:
 * providers (stop when the source is not ready), namespace, maps (stop on any blocker),
 * migration type, VMs (not while Executing; Succeeded VMs skipped), hooks, name templates.
 */
export async function validatePlan(input: ValidationInput): Promise<void> {
  const { plan, references: refs, clock } = input;
  plan.status ??= {};
  const cnd = conditionsOf(plan.status, clock);
  validateSourceProvider(cnd, plan, refs);
  validateDestinationProvider(cnd, plan, refs);
  if (cnd.hasCondition(ConditionType.SourceProviderNotReady)) return;
  validateTargetNamespace(cnd, plan);
  validateMaps(cnd, plan, refs);
  if (cnd.hasBlockerCondition()) return;
  validateMigrationType(cnd, plan, input.source);
  await validateVMs(input);
  validateHooks(input);
  validateNameTemplates(cnd, plan);
}
