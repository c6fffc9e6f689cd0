//! When two versions of a pod differ in a way the provider must hear about.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Container, V1EnvVar, V1Pod } from '@kubernetes/client-node';

/**
 * True when the provider-relevant parts of two pods match: containers, init and ephemeral
 * containers (env compared sorted by name and value), activeDeadlineSeconds, tolerations,
 * labels and annotations. Status is ignored.
 */
export function podsEqual(a: Wire<V1Pod>, b: Wire<V1Pod>): boolean {
  return (
    sameJson(containers(a.spec?.containers), containers(b.spec?.containers)) &&
    sameJson(containers(a.spec?.initContainers), containers(b.spec?.initContainers)) &&
    sameJson(containers(a.spec?.ephemeralContainers), containers(b.spec?.ephemeralContainers)) &&
    sameJson(a.spec?.activeDeadlineSeconds, b.spec?.activeDeadlineSeconds) &&
    sameJson(a.spec?.tolerations, b.spec?.tolerations) &&
    sameJson(a.metadata?.labels ?? {}, b.metadata?.labels ?? {}) &&
    sameJson(a.metadata?.annotations ?? {}, b.metadata?.annotations ?? {})
  );
}

/** True when the change from `oldPod` to `newPod` must be synced to the provider (status-only changes need not). */
export function podShouldEnqueue(oldPod: Wire<V1Pod>, newPod: Wire<V1Pod>): boolean {
  return (
    !podsEqual(oldPod, newPod) ||
    oldPod.metadata?.deletionGracePeriodSeconds !== newPod.metadata?.deletionGracePeriodSeconds ||
    !sameJson(oldPod.metadata?.deletionTimestamp, newPod.metadata?.deletionTimestamp)
  );
}

/** Deep equality ignoring resourceVersion and status. */
export function podsEffectivelyEqual(a: Wire<V1Pod>, b: Wire<V1Pod>): boolean {
  const strip = (pod: Wire<V1Pod>): unknown => {
    const { status: _status, ...rest } = pod;
    return { ...rest, metadata: { ...rest.metadata, resourceVersion: undefined } };
  };
  return sameJson(strip(a), strip(b));
}

/** Sorts env vars by name, then value. */
export function sortEnv(env: Wire<V1EnvVar>[]): Wire<V1EnvVar>[] {
  return [...env].sort((x, y) =>
    x.name === y.name ? (x.value ?? '').localeCompare(y.value ?? '') : x.name < y.name ? -1 : 1,
  );
}

/**
 * True when `a` and `b` are the same JSON (what `JSON.stringify` would write, in any key
 * order): a property whose value is `undefined` counts as absent, a `Date` as its ISO string.
 * Compares in place, without serializing either.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date) return sameJson(a.toISOString(), b);
  if (b instanceof Date) return sameJson(a, b.toISOString());
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    // JSON writes an undefined array element as null
    return a.every((item, i) => sameJson(item ?? null, other[i] ?? null));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const key in x) {
    if (x[key] === undefined) continue;
    defined++;
    if (!sameJson(x[key], y[key])) return false;
  }
  for (const key in y) if (y[key] !== undefined) defined--;
  return defined === 0;
}

function containers(list: Wire<V1Container>[] | undefined): unknown {
  return (list ?? []).map((c) => (c.env === undefined ? c : { ...c, env: sortEnv(c.env) }));
}
