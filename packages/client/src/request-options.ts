//! What a request of the Client may say: the options of each verb, and how they become a query string or a DeleteOptions body.

import type { IncomingHttpHeaders } from 'node:http';
import type { Query } from './paths.js';

/** What every request of the client may say. */
export interface RequestOptions {
  /** Aborts the request (also while it waits for the rate limiter or a Retry-After delay). */
  signal?: AbortSignal;
  /**
   * Skip the token bucket (the metrics, User-Agent, pool and retries still apply): for the
   * few requests that must not queue behind a busy controller's, such as leader election's
   * lease renewals (controller-runtime gives those a client of their own). Default false.
   */
  unthrottled?: boolean;
}

/** Where an object is: its namespace, for a namespaced resource. */
export interface ObjectOptions extends RequestOptions {
  /** The object's namespace; undefined (or `''`) for a cluster-scoped resource. */
  namespace?: string;
}

/** Options of a write. */
export interface WriteOptions extends ObjectOptions {
  /** Recorded as the manager of the fields written. Default: the apiserver's choice (the User-Agent's program name). */
  fieldManager?: string;
  /** Validate and answer without persisting. Default false. */
  dryRun?: boolean;
}

/** A patch's content type: JSON merge patch, JSON patch (RFC 6902), strategic merge patch or server-side apply. */
export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

/** Options of {@link Client.patch}. */
export interface PatchOptions extends WriteOptions {
  /** Default `merge`. */
  type?: PatchType;
  /** `status` (or another subresource) to patch it instead of the object. */
  subresource?: string;
  /** Server-side apply only: take fields other managers own. Default false. */
  force?: boolean;
}

/** Options of {@link Client.delete}. */
export interface DeleteOptions extends ObjectOptions {
  /** Seconds before the object is deleted; `0` at once. Default: the object's own. */
  gracePeriodSeconds?: number;
  /** What happens to dependents. Default: the resource's default. */
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  /** Delete only if the object still has this UID / resourceVersion (409 Conflict otherwise). */
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

/** Options of {@link Client.list} and {@link Client.deleteCollection}. */
export interface ListOptions extends ObjectOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size; `0` or undefined for everything at once. */
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
}

/** A whole answer of {@link Client.request}. */
export interface RestResponse {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /** Gunzipped when the server compressed it. */
  readonly body: Buffer;
}

export const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** The query of a write: `fieldManager`, `dryRun=All`. */
export function writeQuery(options: WriteOptions): Query {
  return {
    fieldManager: options.fieldManager,
    dryRun: options.dryRun === true ? 'All' : undefined,
  };
}

/** The query of a LIST (or a delete of a collection). */
export function listQuery(options: ListOptions): Query {
  return {
    labelSelector: options.labelSelector,
    fieldSelector: options.fieldSelector,
    limit: options.limit || undefined,
    continue: options.continue,
    resourceVersion: options.resourceVersion,
    resourceVersionMatch: options.resourceVersion ? options.resourceVersionMatch : undefined,
  };
}

/** The DeleteOptions body of a delete; undefined when no option asks for one. */
export function deleteBody(options: DeleteOptions): object | undefined {
  const body = {
    ...(options.gracePeriodSeconds !== undefined && {
      gracePeriodSeconds: options.gracePeriodSeconds,
    }),
    ...(options.propagationPolicy !== undefined && {
      propagationPolicy: options.propagationPolicy,
    }),
    ...(options.preconditions !== undefined && { preconditions: options.preconditions }),
    ...(options.dryRun === true && { dryRun: ['All'] }),
  };
  return Object.keys(body).length === 0
    ? undefined
    : { apiVersion: 'v1', kind: 'DeleteOptions', ...body };
}
