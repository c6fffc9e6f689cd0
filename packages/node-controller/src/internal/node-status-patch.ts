//! The three-way patch of a node's status, labels and annotations.

import type { V1Node, V1NodeCondition, V1NodeStatus } from '@kubernetes/client-node';
import {
  LAST_APPLIED_NODE_STATUS_ANNOTATION,
  LAST_APPLIED_OBJECT_META_ANNOTATION,
} from '../node-status-annotations.js';

interface AppliedMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A JSON merge patch (RFC 7386) that moves `server` to what `desired` says, three-way: what the
 * controller applied last (in `server`'s last-applied annotations) and `desired` no longer
 * has is removed; what others added is kept. Conditions merge by `type`. Carries `server`'s
 * resourceVersion, so a concurrent write makes it fail with 409 Conflict.
 */
export function nodeStatusPatch(server: V1Node, desired: V1Node): Record<string, unknown> {
  const serverAnnotations = server.metadata?.annotations ?? {};
  const lastMeta = parseJson<AppliedMeta>(serverAnnotations[LAST_APPLIED_OBJECT_META_ANNOTATION]);
  const lastStatus = parseJson<V1NodeStatus>(
    serverAnnotations[LAST_APPLIED_NODE_STATUS_ANNOTATION],
  );

  const desiredAnnotations = withoutLastApplied(desired.metadata?.annotations);
  const desiredLabels = { ...(desired.metadata?.labels ?? {}) };
  const desiredStatus = toJson(desired.status ?? {}) as Record<string, Json>;
  const appliedMeta: AppliedMeta = {
    name: server.metadata?.name,
    namespace: server.metadata?.namespace,
    uid: server.metadata?.uid,
    labels: desiredLabels,
    annotations: desiredAnnotations,
  };

  const annotations: Record<string, string | null> = mapPatch(
    lastMeta?.annotations,
    desiredAnnotations,
  );
  annotations[LAST_APPLIED_OBJECT_META_ANNOTATION] = JSON.stringify(appliedMeta);
  annotations[LAST_APPLIED_NODE_STATUS_ANNOTATION] = JSON.stringify(desiredStatus);

  const status: Record<string, Json> = {};
  for (const key of Object.keys((lastStatus as Record<string, unknown> | undefined) ?? {})) {
    if (!(key in desiredStatus)) status[key] = null;
  }
  for (const [key, value] of Object.entries(desiredStatus)) {
    if (key === 'conditions') continue;
    status[key] = value;
  }
  status.conditions = mergeConditions(
    toJson(server.status?.conditions ?? []) as unknown as V1NodeCondition[],
    (lastStatus?.conditions ?? []) as V1NodeCondition[],
    (desiredStatus.conditions ?? []) as unknown as V1NodeCondition[],
  ) as unknown as Json;

  return {
    metadata: {
      resourceVersion: server.metadata?.resourceVersion,
      labels: mapPatch(lastMeta?.labels, desiredLabels),
      annotations,
    },
    status,
  };
}

/** Keys of `desired` set; keys of `last` missing from `desired` set to null (removed). */
function mapPatch(
  last: Record<string, string> | undefined,
  desired: Record<string, string>,
): Record<string, string | null> {
  const patch: Record<string, string | null> = {};
  for (const key of Object.keys(last ?? {})) if (!(key in desired)) patch[key] = null;
  for (const [key, value] of Object.entries(desired)) patch[key] = value;
  return patch;
}

/** Server conditions, minus those the controller applied last and dropped since, with desired ones replaced or added by type. */
function mergeConditions(
  server: V1NodeCondition[],
  last: V1NodeCondition[],
  desired: V1NodeCondition[],
): V1NodeCondition[] {
  const desiredByType = new Map(desired.map((c) => [c.type, c]));
  const dropped = new Set(last.map((c) => c.type).filter((type) => !desiredByType.has(type)));
  const merged: V1NodeCondition[] = [];
  const seen = new Set<string>();
  for (const condition of server) {
    if (dropped.has(condition.type)) continue;
    const replacement = desiredByType.get(condition.type);
    merged.push(replacement ?? condition);
    seen.add(condition.type);
  }
  for (const condition of desired) if (!seen.has(condition.type)) merged.push(condition);
  return merged;
}

function withoutLastApplied(
  annotations: Record<string, string> | undefined,
): Record<string, string> {
  const result = { ...(annotations ?? {}) };
  delete result[LAST_APPLIED_OBJECT_META_ANNOTATION];
  delete result[LAST_APPLIED_NODE_STATUS_ANNOTATION];
  return result;
}

function parseJson<T>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** Plain JSON (Dates as RFC 3339 strings, without milliseconds as the apiserver writes them). */
function toJson(value: unknown): Json {
  return JSON.parse(
    JSON.stringify(value, function (this: Record<string, unknown>, key) {
      const raw = this[key];
      return raw instanceof Date ? raw.toISOString().replace(/\.\d{3}Z$/, 'Z') : (raw as Json);
    }),
  ) as Json;
}
