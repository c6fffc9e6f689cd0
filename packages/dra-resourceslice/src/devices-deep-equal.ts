//! DevicesDeepEqual: semantic equality of device lists, tolerant of server-set taint times.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Device } from '@kubernetes/client-node';
import { semanticEqual, timeDeltaMs } from './internal/semantic-equal.js';

/** How far apart two taint `timeAdded` values may be and still count as equal: 1 s. */
export const TAINT_TIME_ADDED_TOLERANCE_MS = 1_000;

function taintEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (a === undefined || a === null || b === undefined || b === null) return a === b;
  if (a.timeAdded != null && b.timeAdded != null) {
    const delta = timeDeltaMs(a.timeAdded, b.timeAdded);
    if (!(Math.abs(delta) <= TAINT_TIME_ADDED_TOLERANCE_MS)) return false;
  }
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '')
  );
}

/**
 * Compares two device lists as apimachinery's `Semantic.DeepEqual` does (an absent list or
 * map equals an empty one, quantities compare by value so `1Gi` equals `1024Mi`), except
 * that a taint without `timeAdded` equals one with it, and two `timeAdded` values at most
 * {@link TAINT_TIME_ADDED_TOLERANCE_MS} apart are equal (the apiserver stores whole
 * seconds). Order matters: reordered devices are different.
 */
export function devicesDeepEqual(
  a: readonly (V1Device | Wire<V1Device>)[] | undefined,
  b: readonly (V1Device | Wire<V1Device>)[] | undefined,
): boolean {
  return semanticEqual(a, b, { taint: taintEqual });
}
