//! The three-way patch of a node's status, labels and annotations.

import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Node } from '@kubernetes/client-node';
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
 * The lists of `NodeStatus` that the Kubernetes schema merges by a key
 * (`patchStrategy:"merge"`); every other list is atomic (replaced whole).
 */
export const NODE_STATUS_MERGE_KEYS: Readonly<Record<string, string>> = {
  conditions: 'type',
  addresses: 'type',
};

/**
 * A strategic merge patch that moves `server` to what `desired` says, three-way as
 * virtual-kubelet's (`CreateThreeWayMergePatch` of the status): what the controller applied
 * last (in `server`'s last-applied annotations) and `desired` no longer has is removed; what
 * others added is kept. Conditions and addresses merge by `type` (an item the controller
 * applied last and dropped gets a `$patch: delete` directive; others' items are untouched);
 * other lists (images, ...) and scalars are set as desired; lists and fields `desired` does
 * not set are left to their writers. Carries `server`'s resourceVersion, so a concurrent write
 * makes it fail with 409 Conflict.
 */
export function nodeStatusPatch(
  server: Wire<V1Node>,
  desired: Wire<V1Node>,
): Record<string, unknown> {
  const serverAnnotations = server.metadata?.annotations ?? {};
  const lastMeta = parseJson<AppliedMeta>(serverAnnotations[LAST_APPLIED_OBJECT_META_ANNOTATION]);
  const lastStatus = parseJson<Record<string, Json>>(
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
  for (const key of Object.keys(lastStatus ?? {})) {
    if (!(key in desiredStatus)) status[key] = null;
  }
  for (const [key, value] of Object.entries(desiredStatus)) {
    const mergeKey = NODE_STATUS_MERGE_KEYS[key];
    status[key] =
      mergeKey !== undefined && Array.isArray(value)
        ? mergeListPatch(mergeKey, asList(lastStatus?.[key]), value)
        : value;
  }

  return {
    metadata: {
      resourceVersion: server.metadata?.resourceVersion,
      labels: mapPatch(lastMeta?.labels, desiredLabels),
      annotations,
    },
    status,
  };
}

/**
 * The patch of a list merged by `mergeKey`: each desired item (with `null` for the fields the
 * same item had when last applied and no longer has), then a `$patch: delete` directive for
 * each item last applied whose key `desired` no longer has.
 */
function mergeListPatch(mergeKey: string, last: Json[], desired: Json[]): Json[] {
  const keyOf = (item: Json): Json | undefined =>
    item !== null && typeof item === 'object' && !Array.isArray(item) ? item[mergeKey] : undefined;
  const lastByKey = new Map(last.map((item) => [keyOf(item), item]));
  const desiredKeys = new Set(desired.map(keyOf));
  const patch: Json[] = desired.map((item) => {
    const before = lastByKey.get(keyOf(item));
    if (!isObject(item) || !isObject(before)) return item;
    const cleared: Record<string, Json> = {};
    for (const field of Object.keys(before)) if (!(field in item)) cleared[field] = null;
    return { ...cleared, ...item };
  });
  for (const [key] of lastByKey) {
    if (key !== undefined && !desiredKeys.has(key))
      patch.push({ [mergeKey]: key, $patch: 'delete' });
  }
  return patch;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asList(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
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
