//! When two versions of a pod differ in a way the provider must hear about.

import { isDeepStrictEqual } from 'node:util';
import type { V1Container, V1EnvVar, V1Pod } from '@kubernetes/client-node';

/**
 * True when the provider-relevant parts of two pods match: containers, init and ephemeral
 * containers (env compared sorted by name and value), activeDeadlineSeconds, tolerations,
 * labels and annotations. Status is ignored.
 */
export function podsEqual(a: V1Pod, b: V1Pod): boolean {
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
export function podShouldEnqueue(oldPod: V1Pod, newPod: V1Pod): boolean {
  return (
    !podsEqual(oldPod, newPod) ||
    oldPod.metadata?.deletionGracePeriodSeconds !== newPod.metadata?.deletionGracePeriodSeconds ||
    !sameJson(oldPod.metadata?.deletionTimestamp, newPod.metadata?.deletionTimestamp)
  );
}

/** Deep equality ignoring resourceVersion and status. */
export function podsEffectivelyEqual(a: V1Pod, b: V1Pod): boolean {
  const strip = (pod: V1Pod): unknown => {
    const { status: _status, ...rest } = pod;
    return toJson({ ...rest, metadata: { ...rest.metadata, resourceVersion: undefined } });
  };
  return isDeepStrictEqual(strip(a), strip(b));
}

/** Sorts env vars by name, then value. */
export function sortEnv(env: V1EnvVar[]): V1EnvVar[] {
  return [...env].sort((x, y) =>
    x.name === y.name ? (x.value ?? '').localeCompare(y.value ?? '') : x.name < y.name ? -1 : 1,
  );
}

/** Plain JSON: Dates as strings, undefined dropped. */
export function toJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

export function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(toJson(a), toJson(b));
}

function containers(list: V1Container[] | undefined): unknown {
  return (list ?? []).map((c) => (c.env === undefined ? c : { ...c, env: sortEnv(c.env) }));
}
