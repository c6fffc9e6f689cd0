//! The `Ready` condition other objects are checked for, and the Critical conditions validation sets.

import type { Condition } from '../api/condition.js';
import { Category, type NewCondition, READY, True } from '../conditions.js';

/** Whether an object's status has `Ready` True. */
export function hasReady(obj: { status?: { conditions?: Condition[] } } | undefined): boolean {
  return (obj?.status?.conditions ?? []).some((c) => c.type === READY && c.status === True);
}

/** A Critical condition of `type` (a blocker), with `reason` when given. */
export function critical(type: string, message: string, reason?: string): NewCondition {
  return {
    type,
    status: True,
    category: Category.Critical,
    message,
    ...(reason !== undefined && { reason }),
  };
}
