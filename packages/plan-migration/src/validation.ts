//! Staged validation of a Plan: providers, namespace, maps, VMs and hooks (Forklift's plan/validation.go).

import { ConditionType } from './condition-types.js';
import { conditionsOf } from './conditions.js';
import { validateHooks } from './validation/hook-checks.js';
import { validateNameTemplates } from './validation/name-template-checks.js';
import {
  validateDestinationProvider,
  validateMaps,
  validateMigrationType,
  validateSourceProvider,
  validateTargetNamespace,
} from './validation/plan-checks.js';
import type { ValidationInput } from './validation/validation-input.js';
import { validateVMs } from './validation/vm-checks.js';

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
  await validateNameTemplates(cnd, input);
}
