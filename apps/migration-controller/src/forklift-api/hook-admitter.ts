//! The Hook admitter: a Hook whose image or playbook the hook controller would mark Critical is refused at once.

import { Category, type Hook } from '@ctrlkit/plan-migration/api';
import { validateHook } from '@ctrlkit/plan-migration/controllers';
import type { CustomValidator } from '@ctrlkit/runtime/webhook';
import { denied } from './denied.js';

/**
 * Validates Hooks on create and update with the hook controller's own rules
 * (`validateHook`: `spec.image` an image reference, `spec.playbook` base64): a Critical
 * condition is a refusal (code 400) with the conditions' messages, joined by `; `.
 */
export function hookAdmitter(): CustomValidator<Hook> {
  const check = (hook: Hook): undefined => {
    const critical = validateHook(hook).filter((c) => c.category === Category.Critical);
    if (critical.length > 0) throw denied(critical.map((c) => c.message).join('; '));
    return undefined;
  };
  return {
    validateCreate: (hook) => check(hook),
    validateUpdate: (_old, hook) => check(hook),
    validateDelete: () => undefined,
  };
}
