//! The reflector: lists a resource, then watches it from the list's resource version, forever.

import { type Clock, InvalidArgumentError, realClock } from '@ctrlkit/workqueue';
import type { KubernetesObject } from '@kubernetes/client-node';
import { type Logger, noopLogger } from '../logger.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import { ApiStatusError } from './errors/api-status-error.js';
import { ResourceExpiredError } from './errors/resource-expired-error.js';
import { WatchStreamError } from './errors/watch-stream-error.js';
import type { ListWatch, WatchEvent } from './list-watch.js';
import { isExpiredStatus } from './rest-client.js';

/** Objects per LIST page: 500, as client-go's pager. */
export const DEFAULT_PAGE_SIZE = 500;
/** The shortest server-side watch timeout; each watch asks for this × (1 + random): 5 min. */
export const DEFAULT_MIN_WATCH_TIMEOUT_MS = 300_000;
/**
 * A watch on which nothing (not even a bookmark, which the apiserver sends about once a
 * minute) arrived for this long is taken for a half-open connection, closed, and resumed
 * from the last resourceVersion: 2 min.
 */
export const WATCH_IDLE_TIMEOUT_MS = 120_000;
/** A watch that ends sooner than this without an event counts as a failure (backoff): 1 s. */
export const SHORT_WATCH_MS = 1_000;
/** A 410 Gone less than this long after the previous one relists after a backoff, not at once: 10 s. */
export const RELIST_AT_ONCE_AFTER_MS = 10_000;
/** The annotation on the bookmark that ends the initial events of a streaming list. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/**
 * How the reflector gets the initial state: `'list'` (paginated LIST, then WATCH),
 * `'stream'` (a streaming list: WATCH with `sendInitialEvents=true`, the WatchList feature),
 * or `'auto'` (stream, and fall back to LIST for good when the server refuses it).
 */
export type InitialListMode = 'auto' | 'list' | 'stream';
/**
 * The default initial list mode: `'list'`. Measured against kube-apiserver 1.37 on
 * 10,000 ConfigMaps, a streaming list reached sync 1.2–1.5x later than a paginated LIST
 * (the server encodes each object as its own event); choose `'auto'` to spare the
 * apiserver's memory instead.
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
export interface ReflectorOptions<T extends KubernetesObject> {
  listWatch: ListWatch<T>;
  sink: ReflectorSink<T>;
  /** A name for logs, e.g. `v1/configmaps`. Default `'reflector'`. */
  name?: string;
  /** Objects per LIST page; `0` lists in one request. Default {@link DEFAULT_PAGE_SIZE}. */
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

/**
 * Keeps a {@link ReflectorSink} in step with the apiserver (client-go's `Reflector`).
 *
 * Guarantees: the first thing delivered is a `replace` with the complete state; after it,
 * events arrive in the order the apiserver sent them; a dropped watch is resumed from the
 * last resource version seen (bookmarks included), so nothing is delivered twice and
 * nothing is skipped; when that version has expired (410 Gone) it lists again and delivers
 * a `replace`. Other failures are logged and retried with backoff for as long as it runs.
 */
export class Reflector<T extends KubernetesObject = KubernetesObject> {
  readonly name: string;
  readonly #listWatch: ListWatch<T>;
  readonly #sink: ReflectorSink<T>;
  readonly #pageSize: number;
  #mode: InitialListMode;
  readonly #minWatchTimeoutMs: number;
  readonly #backoff: Backoff;
  readonly #transform: ((obj: T) => T) | undefined;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #random: () => number;
  #lastResourceVersion = '';
  #running = false;

  constructor(options: ReflectorOptions<T>) {
    if (options === null || typeof options !== 'object')
      throw new InvalidArgumentError('options', 'must be an object');
    const lw = options.listWatch;
    if (!lw || typeof lw.list !== 'function' || typeof lw.watch !== 'function') {
      throw new InvalidArgumentError('listWatch', 'must have list() and watch()');
    }
    const sink = options.sink;
    if (!sink || typeof sink.replace !== 'function')
      throw new InvalidArgumentError('sink', 'must be a ReflectorSink');
    this.#listWatch = lw;
    this.#sink = sink;
    this.name = options.name ?? 'reflector';
    this.#pageSize = integer('pageSize', options.pageSize, DEFAULT_PAGE_SIZE, 0);
    const mode = options.initialListMode ?? DEFAULT_INITIAL_LIST_MODE;
    if (mode !== 'auto' && mode !== 'list' && mode !== 'stream') {
      throw new InvalidArgumentError(
        'initialListMode',
        `must be 'auto', 'list' or 'stream', got ${String(mode)}`,
      );
    }
    this.#mode = mode;
    this.#minWatchTimeoutMs = integer(
      'minWatchTimeoutMs',
      options.minWatchTimeoutMs,
      DEFAULT_MIN_WATCH_TIMEOUT_MS,
      1_000,
    );
    if (options.transform !== undefined && typeof options.transform !== 'function') {
      throw new InvalidArgumentError('transform', 'must be a function');
    }
    const transform = options.transform;
    this.#transform =
      transform === undefined
        ? undefined
        : (obj: T): T => {
            try {
              return transform(obj);
            } catch (error) {
              this.#logger.error(
                { reflector: this.name, name: obj?.metadata?.name, error: describe(error) },
                'transform threw; the object is kept as received',
              );
              return obj;
            }
          };
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger ?? noopLogger;
    this.#random = options.random ?? Math.random;
    this.#backoff = new Backoff({ clock: this.#clock, random: this.#random, ...options.backoff });
  }

  /** The resource version of the last list, event or bookmark seen; `''` before the first list. */
  get lastSyncResourceVersion(): string {
    return this.#lastResourceVersion;
  }

  /** The initial list mode in use (an `'auto'` reflector becomes `'list'` once the server refused streaming). */
  get initialListMode(): InitialListMode {
    return this.#mode;
  }

  /** Lists and watches until `signal` aborts; never rejects. Throws if already running. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#running) throw new InvalidArgumentError('run', 'the reflector is already running');
    this.#running = true;
    try {
      let needList = true;
      let lastExpiredAt = Number.NEGATIVE_INFINITY;
      while (!signal.aborted) {
        try {
          if (needList) {
            if (this.#mode === 'list') {
              await this.#list(signal);
            } else {
              // A streaming list delivers the state and then keeps watching on the same stream.
              const streamed = await this.#streamingList(signal);
              if (!streamed) continue;
            }
            needList = false;
          }
          await this.#watchFromLast(signal);
        } catch (error) {
          if (signal.aborted) break;
          if (ResourceExpiredError.isInstance(error)) {
            this.#logger.info(
              {
                reflector: this.name,
                resourceVersion: this.#lastResourceVersion,
                error: error.message,
              },
              'resource version expired; listing again',
            );
            needList = true;
            // A relist goes at once, unless the previous expiry was recent: then back off.
            const now = this.#clock.now();
            const recent = now - lastExpiredAt < RELIST_AT_ONCE_AFTER_MS;
            lastExpiredAt = now;
            if (!recent) continue;
          } else {
            this.#logger.warn(
              {
                reflector: this.name,
                resourceVersion: this.#lastResourceVersion,
                error: describe(error),
              },
              needList
                ? 'list failed; retrying with backoff'
                : 'watch failed; retrying with backoff',
            );
          }
          const delay = await this.#backoff.wait(signal);
          this.#logger.debug({ reflector: this.name, delayMs: Math.round(delay) }, 'backed off');
        }
      }
    } finally {
      this.#running = false;
    }
  }

  async #list(signal: AbortSignal): Promise<void> {
    const items: T[] = [];
    let continueToken: string | undefined;
    let resourceVersion = '';
    const transform = this.#transform;
    do {
      const page = await this.#listWatch.list({
        limit: this.#pageSize || undefined,
        continue: continueToken,
        signal,
      });
      const pageItems = page.items;
      const kind = page.kind?.endsWith('List') ? page.kind.slice(0, -4) : undefined;
      const apiVersion = page.apiVersion;
      for (let i = 0; i < pageItems.length; i++) {
        let item = pageItems[i] as T;
        // List items carry no kind/apiVersion; watch events do. Make them alike.
        if (kind !== undefined && item.kind === undefined) {
          item.apiVersion = apiVersion;
          item.kind = kind;
        }
        if (transform !== undefined) item = transform(item);
        items.push(item);
      }
      continueToken = page.metadata?.continue || undefined;
      resourceVersion = page.metadata?.resourceVersion ?? '';
    } while (continueToken !== undefined && !signal.aborted);
    signal.throwIfAborted();
    this.#sink.replace(items, resourceVersion);
    this.#lastResourceVersion = resourceVersion;
    this.#logger.debug({ reflector: this.name, objects: items.length, resourceVersion }, 'listed');
  }

  /**
   * A streaming list: returns true once the watch that delivered the state ended (the
   * caller goes on watching from the last version), false when the server refused it and
   * the reflector switched to LIST.
   */
  async #streamingList(signal: AbortSignal): Promise<boolean> {
    const initial: T[] = [];
    let synced = false;
    try {
      await this.#watch(
        signal,
        { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', resourceVersion: '' },
        (event) => {
          if (synced) return false;
          if (event.type === 'ADDED') {
            initial.push(this.#transform ? this.#transform(event.object) : event.object);
            return true;
          }
          if (
            event.type === 'BOOKMARK' &&
            event.object.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] === 'true'
          ) {
            const resourceVersion = event.object.metadata?.resourceVersion ?? '';
            this.#sink.replace(initial, resourceVersion);
            initial.length = 0;
            synced = true;
            this.#logger.debug(
              { reflector: this.name, resourceVersion },
              'streamed the initial list',
            );
            return true;
          }
          if (event.type === 'BOOKMARK') return true;
          return false;
        },
      );
    } catch (error) {
      if (!synced && this.#mode === 'auto' && refusesStreaming(error)) {
        this.#logger.info(
          { reflector: this.name, error: describe(error) },
          'streaming lists refused; using LIST',
        );
        this.#mode = 'list';
        return false;
      }
      throw error;
    }
    if (!synced)
      throw new WatchStreamError('the streaming list ended before its initial-events-end bookmark');
    return true;
  }

  #watchFromLast(signal: AbortSignal): Promise<void> {
    return this.#watch(signal, { resourceVersion: this.#lastResourceVersion }, () => false);
  }

  /**
   * One watch. `special` may consume an event (returning true) before normal handling.
   * Resolves when the server ends the stream after a useful watch; a very short, empty
   * watch is a failure.
   */
  async #watch(
    signal: AbortSignal,
    options: {
      resourceVersion: string;
      sendInitialEvents?: boolean;
      resourceVersionMatch?: 'NotOlderThan';
    },
    special: (event: WatchEvent<T>) => boolean,
  ): Promise<void> {
    const timeoutSeconds = Math.floor((this.#minWatchTimeoutMs / 1000) * (1 + this.#random()));
    const started = this.#clock.now();
    let events = 0;
    const sink = this.#sink;
    const transform = this.#transform;
    await this.#listWatch.watch(
      {
        ...options,
        allowWatchBookmarks: true,
        timeoutSeconds,
        idleTimeoutMs: Math.min(timeoutSeconds * 1000 + 30_000, WATCH_IDLE_TIMEOUT_MS),
        signal,
      },
      (event) => {
        events++;
        if (special(event)) {
          this.#noteVersion(event.object);
          return;
        }
        switch (event.type) {
          case 'ADDED':
            sink.add(transform ? transform(event.object) : event.object);
            break;
          case 'MODIFIED':
            sink.update(transform ? transform(event.object) : event.object);
            break;
          case 'DELETED':
            sink.delete(transform ? transform(event.object) : event.object);
            break;
          case 'BOOKMARK':
            break;
          case 'ERROR': {
            const status = event.object as { code?: number; reason?: string; message?: string };
            if (isExpiredStatus(status)) {
              throw new ResourceExpiredError(
                `watch: ${status.message ?? 'resource version expired'}`,
                options.resourceVersion,
              );
            }
            throw new ApiStatusError(status.code ?? 0, status, `WATCH ${this.name}`);
          }
          default:
            throw new WatchStreamError(`unknown watch event type ${JSON.stringify(event.type)}`);
        }
        this.#noteVersion(event.object);
      },
    );
    if (events === 0 && this.#clock.now() - started < SHORT_WATCH_MS && !signal.aborted) {
      throw new WatchStreamError('very short watch: the server closed it at once without an event');
    }
  }

  #noteVersion(obj: KubernetesObject): void {
    const rv = obj?.metadata?.resourceVersion;
    if (rv) this.#lastResourceVersion = rv;
  }
}

/** True when a streaming-list watch was refused as unsupported (so a LIST should be used). */
function refusesStreaming(error: unknown): boolean {
  if (!ApiStatusError.isInstance(error)) return false;
  return (
    error.statusCode === 400 ||
    error.statusCode === 403 ||
    error.statusCode === 422 ||
    error.statusCode === 501
  );
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

function integer(field: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new InvalidArgumentError(field, `must be an integer ≥ ${min}, got ${String(value)}`);
  }
  return value;
}
