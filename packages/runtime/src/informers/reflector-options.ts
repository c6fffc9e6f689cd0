//! What a reflector is built from: its sink, its options, and their defaults.

import type { KubeObject } from '@ctrlkit/client';
import { type Clock, InvalidArgumentError } from '@ctrlkit/core';
import type { Logger } from '../logger.js';
import type { BackoffOptions } from './backoff.js';
import type { ListWatch } from './list-watch.js';

/**
 * Objects per LIST page when the reflector pages (client-go's pager: 500): a list at `'0'`
 * (the watch cache ignores the limit there) or `''` (a quorum read from etcd).
 */
export const DEFAULT_PAGE_SIZE = 500;
/** The shortest server-side watch timeout; each watch asks for this × (1 + random): 5 min. */
export const DEFAULT_MIN_WATCH_TIMEOUT_MS = 300_000;
/**
 * A watch on which nothing arrived for its own `timeoutSeconds` and this much more is
 * closed and resumed from the last resourceVersion: 30 s. The server ends every watch at
 * its timeout, so this never fires on a healthy watch, however quiet (kube-apiserver sends
 * no bookmark while a resource does not change); it is the backstop for a half-open
 * connection over HTTP/1.1. Over HTTP/2 (the client's default), the session's ping closes a
 * half-open connection within 45 s.
 */
export const WATCH_TIMEOUT_GRACE_MS = 30_000;
/** A watch that ends sooner than this without an event counts as a failure (backoff): 1 s. */
export const SHORT_WATCH_MS = 1_000;
/** A 410 Gone less than this long after the previous one relists after a backoff, not at once: 10 s. */
export const RELIST_AT_ONCE_AFTER_MS = 10_000;
/** The annotation on the bookmark that ends the initial events of a streaming list. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/**
 * How the reflector gets the initial state: `'list'` (LIST, then WATCH), `'stream'` (a
 * streaming list: WATCH with `sendInitialEvents=true`, the WatchList feature), or `'auto'`
 * (stream; where the server refuses the stream or ends it in an error before it delivered the
 * state, that attempt falls back to a LIST, and the next (re)list tries the stream again, as
 * client-go does; after a 429, a refused connection or a stream that broke under way it backs
 * off and streams again, with no LIST, as client-go).
 */
export type InitialListMode = 'auto' | 'list' | 'stream';
/**
 * The default initial list mode: `'list'`, which works on every apiserver and, in JSON,
 * syncs sooner than a streaming list: the apiserver spends about twice the CPU encoding
 * a list as watch events (measured by the bench; see the README).
 */
export const DEFAULT_INITIAL_LIST_MODE: InitialListMode = 'list';

/** Where the reflector delivers what it learns. */
export interface ReflectorSink<T> {
  /** The complete current state after a (re)list, at `resourceVersion`. */
  replace(objects: T[], resourceVersion: string): void;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
}

/** Options of a {@link Reflector}. */
export interface ReflectorOptions<T extends KubeObject> {
  listWatch: ListWatch<T>;
  sink: ReflectorSink<T>;
  /** A name for logs, e.g. `v1/configmaps`. Default `'reflector'`. */
  name?: string;
  /**
   * Objects per LIST page, for every list (client-go's `WatchListPageSize`); `0` lists in one
   * request. Default: as client-go, pages of {@link DEFAULT_PAGE_SIZE} for a list at `'0'`
   * or `''`, and one request for a relist from a version (served by the watch cache),
   * unless the first list came back in pages (no watch cache): then pages always.
   */
  pageSize?: number;
  /** Default {@link DEFAULT_INITIAL_LIST_MODE}. */
  initialListMode?: InitialListMode;
  /** Watch timeouts are this × (1 + random), in ms (sent in whole seconds). Default {@link DEFAULT_MIN_WATCH_TIMEOUT_MS}. */
  minWatchTimeoutMs?: number;
  /** The backoff after failures. Default: client-go's (800 ms, ×2, 30 s cap, jitter 1, reset after 2 min). */
  backoff?: BackoffOptions;
  /** Applied to each object as it arrives, before `sink` sees it. Default: none. */
  transform?: (obj: T) => T;
  clock?: Clock;
  logger?: Logger;
  /** Source of randomness in `[0, 1)` for watch timeouts and jitter. Default `Math.random`. */
  random?: () => number;
}

/** `value`, checked to be an integer ≥ `min` (an error naming `field` otherwise), or `fallback`. */
export function integer(
  field: string,
  value: number | undefined,
  fallback: number,
  min: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new InvalidArgumentError(field, `must be an integer ≥ ${min}, got ${String(value)}`);
  }
  return value;
}
