//! Wall time as Kubernetes writes it: RFC 3339 in whole seconds, read from the one clock.

import type { Clock } from '@ctrlkit/core';

/** `clock.now()` (epoch ms) as `2026-01-02T03:04:05Z`. */
export function timestamp(clock: Clock): string {
  return formatTime(clock.now());
}

/** Epoch ms as RFC 3339, truncated to the second like `metav1.Time`. */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** RFC 3339 to epoch ms; NaN for undefined or unparsable input. */
export function parseTime(value: string | undefined): number {
  return value === undefined ? Number.NaN : Date.parse(value);
}
