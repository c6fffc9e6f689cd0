//! The `informers` liveness check: fails when an informer has had no working watch for too long.

import type { Clock } from '@ctrlkit/core';
import type { ReflectorHealth } from '../informers/reflector.js';
import type { HealthCheck } from './health-probes.js';

/**
 * A health check that fails, naming the informers, when one has been without a watch the
 * server accepted for longer than `timeoutMs` (an informer that silently stopped receiving
 * events: Kubernetes then restarts the controller instead of leaving it blind).
 */
export function informerHealthCheck(
  health: () => Map<string, ReflectorHealth>,
  clock: Clock,
  timeoutMs: number,
): HealthCheck {
  return () => {
    const now = clock.now();
    const stuck: string[] = [];
    for (const [name, h] of health()) {
      if (h.unwatchedSinceMs !== undefined && now - h.unwatchedSinceMs > timeoutMs)
        stuck.push(`${name} (${h.state} for ${Math.round((now - h.unwatchedSinceMs) / 1000)} s)`);
    }
    if (stuck.length > 0)
      throw new Error(`no working watch for over ${timeoutMs} ms: ${stuck.join(', ')}`);
  };
}
