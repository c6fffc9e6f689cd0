//! The hook checks of a plan: each VM's hook references a Ready Hook for a valid step.

import { planStatus } from '../api/plan.js';
import { refString } from '../api/ref.js';
import { ConditionType, Reason } from '../condition-types.js';
import { Category, conditionsOf, True } from '../conditions.js';
import { hasReady } from './ready.js';
import type { ValidationInput } from './validation-input.js';

/** Sets one condition per kind of hook problem, listing the VM hooks that have it. */
export function validateHooks(input: ValidationInput): void {
  const { plan, clock, references } = input;
  const cnd = conditionsOf(planStatus(plan), clock);
  const item = (type: string, reason: string, message: string) => ({
    type,
    status: True,
    reason,
    category: Category.Critical,
    message,
    items: [] as string[],
  });
  const notSet = item(
    ConditionType.HookNotValid,
    Reason.NotSet,
    'Hook specified by: `namespace` and `name`.',
  );
  const notFound = item(ConditionType.HookNotValid, Reason.NotFound, 'Hook not found.');
  const notReady = item(
    ConditionType.HookNotReady,
    Reason.NotFound,
    'Hook does not have `Ready` condition.',
  );
  const stepNotValid = item(
    ConditionType.HookStepNotValid,
    Reason.NotValid,
    'Hook step not valid.',
  );
  for (const vm of plan.spec.vms ?? []) {
    for (const ref of vm.hooks ?? []) {
      if (ref.step !== 'PreHook' && ref.step !== 'PostHook') {
        stepNotValid.items.push(`VM: ${refString(vm)} step: ${ref.step}`);
      }
      if (!ref.hook?.name) {
        notSet.items.push(`VM: ${refString(vm)}`);
        continue;
      }
      const namespace = ref.hook.namespace || plan.metadata.namespace || '';
      const desc = `VM: ${refString(vm)} hook: ${namespace}/${ref.hook.name}`;
      const hook = references.hook(namespace, ref.hook.name);
      if (hook === undefined) {
        notFound.items.push(desc);
        continue;
      }
      if (!hasReady(hook)) notReady.items.push(desc);
    }
  }
  for (const c of [notSet, notFound, notReady, stepNotValid])
    if (c.items.length > 0) cnd.setCondition(c);
}
