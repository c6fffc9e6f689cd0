//! The reflector: lists a resource, then watches it from the list's resource version, forever.

import {
  type ApiStatus,
  ApiStatusError,
  type KubeObject,
  ResourceExpiredError,
  WatchStreamError,
} from '@ctrlkit/client';
import {
  type Clock,
  InvalidArgumentError,
  isExpiredStatus,
  isGone,
  realClock,
} from '@ctrlkit/core';
import { type Logger, noopLogger } from '../logger.js';
import { Backoff } from './backoff.js';
import { isTooLargeResourceVersionError } from './errors/resource-version-unavailable.js';
import { type ListResult, pagedList } from './list-pager.js';
import type { ListRequestOptions, ListWatch, WatchEvent } from './list-watch.js';
import type { ReflectorHealth, WatchState } from './reflector-health.js';
import {
  DEFAULT_INITIAL_LIST_MODE,
  DEFAULT_MIN_WATCH_TIMEOUT_MS,
  DEFAULT_PAGE_SIZE,
  INITIAL_EVENTS_END_ANNOTATION,
  type InitialListMode,
  integer,
  RELIST_AT_ONCE_AFTER_MS,
  type ReflectorOptions,
  type ReflectorSink,
  SHORT_WATCH_MS,
  WATCH_TIMEOUT_GRACE_MS,
} from './reflector-options.js';
import { dropManagedFields } from './transform.js';
import { describe, needsOperator, relistsAfter, streamFallsBackToList } from './watch-failure.js';

// The reflector's contract lives beside it; these names are the reflector's public surface.
export type { ReflectorHealth, WatchState } from './reflector-health.js';
export {
  DEFAULT_INITIAL_LIST_MODE,
  DEFAULT_MIN_WATCH_TIMEOUT_MS,
  DEFAULT_PAGE_SIZE,
  INITIAL_EVENTS_END_ANNOTATION,
  type InitialListMode,
  RELIST_AT_ONCE_AFTER_MS,
  type ReflectorOptions,
  type ReflectorSink,
  SHORT_WATCH_MS,
  WATCH_TIMEOUT_GRACE_MS,
} from './reflector-options.js';

/**
 * Keeps a {@link ReflectorSink} in step with the apiserver (client-go's `Reflector`).
 *
 * Guarantees: the first thing delivered is a `replace` with the complete state; after it,
 * events arrive in the order the apiserver sent them; a dropped watch is resumed from the
 * last resource version seen (bookmarks included), so nothing is delivered twice and
 * nothing is skipped; when that version has expired (410 Gone) it lists again and delivers
 * a `replace`. Other failures are logged and retried with backoff for as long as it runs.
 */
export class Reflector<T extends KubeObject = KubeObject> {
  readonly name: string;
  readonly #listWatch: ListWatch<T>;
  readonly #sink: ReflectorSink<T>;
  readonly #pageSize: number | undefined;
  readonly #mode: InitialListMode;
  readonly #minWatchTimeoutMs: number;
  readonly #backoff: Backoff;
  readonly #transform: ((obj: T) => T) | undefined;
  /**
   * What every LIST asks the ListWatch to do while it parses: set the items' kind and
   * apiVersion, and, when the transform is {@link dropManagedFields}, leave the field out.
   */
  readonly #parsing: Pick<ListRequestOptions, 'dropManagedFields' | 'itemTypeMeta'>;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #random: () => number;
  #lastResourceVersion = '';
  /** The last list or watch at `#lastResourceVersion` was answered "expired" or "too large". */
  #lastVersionUnavailable = false;
  /** The first list (at `'0'`) came back in pages: the server has no watch cache for it. */
  #paginatedResult = false;
  /** No state delivered yet, or it must be fetched again. */
  #needList = true;
  #running = false;
  #state: WatchState = 'listing';
  #lastEventAtMs: number | undefined;
  #unwatchedSinceMs: number | undefined;

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
    this.#pageSize =
      options.pageSize === undefined ? undefined : integer('pageSize', options.pageSize, 0, 0);
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
    this.#parsing = {
      itemTypeMeta: true,
      ...(transform === dropManagedFields && { dropManagedFields: true }),
    };
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

  /** Its state, when it last heard from the server, and since when it has had no open watch. */
  health(): ReflectorHealth {
    return {
      state: this.#state,
      lastEventAtMs: this.#lastEventAtMs,
      unwatchedSinceMs: this.#unwatchedSinceMs,
    };
  }

  /** The watch is no longer open (ended, failed, or not yet opened). */
  #unwatched(): void {
    this.#unwatchedSinceMs ??= this.#clock.now();
  }

  /** The initial list mode this reflector was made with. */
  get initialListMode(): InitialListMode {
    return this.#mode;
  }

  /**
   * The version a LIST asks for (client-go's `relistResourceVersion`): `'0'` the first
   * time (any state the watch cache holds), then the last version seen (a state at least
   * that new), and `''` (a consistent read from etcd) once that version was answered
   * "expired" or "too large".
   */
  #relistResourceVersion(): string {
    if (this.#lastVersionUnavailable) return '';
    return this.#lastResourceVersion === '' ? '0' : this.#lastResourceVersion;
  }

  /** The version a streaming list asks for: the last one seen, or `''` (the latest). */
  #rewatchResourceVersion(): string {
    return this.#lastVersionUnavailable ? '' : this.#lastResourceVersion;
  }

  /** Lists and watches until `signal` aborts; never rejects. Throws if already running. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#running) throw new InvalidArgumentError('run', 'the reflector is already running');
    this.#running = true;
    this.#unwatchedSinceMs = undefined;
    this.#unwatched();
    try {
      this.#needList = true;
      let lastExpiredAt = Number.NEGATIVE_INFINITY;
      while (!signal.aborted) {
        try {
          if (this.#needList) {
            this.#state = 'listing';
            // A streaming list delivers the state, then goes on watching on the same stream.
            const streamed = this.#mode !== 'list' && (await this.#streamingList(signal));
            if (!streamed) await this.#list(signal);
            if (streamed) continue;
          }
          await this.#watchFromLast(signal);
        } catch (error) {
          this.#unwatched();
          if (signal.aborted) break;
          const listing = this.#needList;
          if (isGone(error)) {
            this.#logger.info(
              {
                reflector: this.name,
                resourceVersion: this.#lastResourceVersion,
                error: describe(error),
              },
              'resource version expired; listing again',
            );
            this.#needList = true;
            // A relist goes at once, unless the previous expiry was recent: then back off.
            const now = this.#clock.now();
            const recent = now - lastExpiredAt < RELIST_AT_ONCE_AFTER_MS;
            lastExpiredAt = now;
            if (!recent) continue;
          } else {
            // As client-go: a watch the apiserver refused or ended with an error Status is
            // followed by a relist (from the last version); a broken connection or 429 by a
            // new watch from the last version.
            if (relistsAfter(error)) this.#needList = true;
            // What only an operator can fix (RBAC, credentials, the CA) is an error, not a warning.
            const log = needsOperator(error) ? this.#logger.error : this.#logger.warn;
            log.call(
              this.#logger,
              {
                reflector: this.name,
                resourceVersion: this.#lastResourceVersion,
                error: describe(error),
              },
              listing
                ? 'list failed; retrying with backoff'
                : this.#needList
                  ? 'watch failed; listing again after a backoff'
                  : 'watch failed; watching again after a backoff',
            );
          }
          this.#state = 'backing-off';
          const delay = await this.#backoff.wait(signal);
          this.#logger.debug({ reflector: this.name, delayMs: Math.round(delay) }, 'backed off');
        }
      }
    } finally {
      this.#running = false;
    }
  }

  /**
   * One (re)list, as client-go's reflector: at {@link Reflector.#relistResourceVersion};
   * when that version is answered "expired" or "too large", at once again at `''`.
   */
  async #list(signal: AbortSignal): Promise<void> {
    const resourceVersion = this.#relistResourceVersion();
    let result: ListResult<T>;
    try {
      result = await this.#pagedList(resourceVersion, signal);
    } catch (error) {
      if (signal.aborted || !(isGone(error) || isTooLargeResourceVersionError(error))) throw error;
      this.#lastVersionUnavailable = true;
      this.#logger.info(
        { reflector: this.name, resourceVersion, error: describe(error) },
        'resource version unavailable; listing the latest state (a consistent read)',
      );
      result = await this.#pagedList(this.#relistResourceVersion(), signal);
    }
    signal.throwIfAborted();
    // Pages in answer to '0' mean the server has no watch cache here: then page relists too.
    if (resourceVersion === '0' && result.paginated) this.#paginatedResult = true;
    this.#lastVersionUnavailable = false;
    this.#sink.replace(result.items, result.resourceVersion);
    this.#lastResourceVersion = result.resourceVersion;
    this.#lastEventAtMs = this.#clock.now();
    this.#needList = false;
    this.#logger.debug(
      {
        reflector: this.name,
        objects: result.items.length,
        resourceVersion: result.resourceVersion,
        asked: resourceVersion,
      },
      'listed',
    );
  }

  /** The page size of a list at `resourceVersion` (client-go's choice; see `pageSize`). */
  #limitFor(resourceVersion: string): number {
    if (this.#pageSize !== undefined) return this.#pageSize;
    if (this.#paginatedResult || resourceVersion === '' || resourceVersion === '0')
      return DEFAULT_PAGE_SIZE;
    // A relist from a version, without a limit, is served by the watch cache, sparing etcd.
    return 0;
  }

  /** A list at `resourceVersion` in pages (client-go's pager; see {@link pagedList}). */
  #pagedList(resourceVersion: string, signal: AbortSignal): Promise<ListResult<T>> {
    return pagedList(
      this.#listWatch,
      resourceVersion,
      this.#limitFor(resourceVersion),
      signal,
      this.#transform,
      (error) =>
        this.#logger.info(
          { reflector: this.name, resourceVersion, error: describe(error) },
          'a continue token expired; listing everything in one request',
        ),
      this.#parsing,
    );
  }

  /**
   * A streaming list (client-go's `watchList`) at {@link Reflector.#rewatchResourceVersion}
   * with `resourceVersionMatch=NotOlderThan`. Returns true once the state was delivered and
   * the same stream, watched on, ended; false in `'auto'` mode when it failed before
   * delivering the state where client-go falls back (this attempt then lists; see
   * {@link streamFallsBackToList}); other failures throw (the run loop backs off and streams
   * again). A version answered "expired" or "too large" (also `''`, whose consistent read
   * the watch cache did not catch up with in time) is retried at once from `''`.
   */
  async #streamingList(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      const resourceVersion = this.#rewatchResourceVersion();
      const initial: T[] = [];
      let synced = false;
      const stream = { opened: false, events: 0, startedMs: this.#clock.now() };
      try {
        await this.#watch(
          signal,
          { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', resourceVersion },
          (event) => {
            stream.events++;
            if (synced) return false;
            if (event.type === 'ADDED') {
              initial.push(this.#transform ? this.#transform(event.object) : event.object);
              return true;
            }
            if (event.type !== 'BOOKMARK') return false;
            if (event.object.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] === 'true') {
              const rv = event.object.metadata?.resourceVersion ?? '';
              this.#lastVersionUnavailable = false;
              this.#sink.replace(initial, rv);
              this.#lastResourceVersion = rv;
              this.#needList = false;
              initial.length = 0;
              synced = true;
              this.#logger.debug(
                { reflector: this.name, resourceVersion: rv, asked: resourceVersion },
                'streamed the initial list',
              );
            }
            return true;
          },
          () => synced,
          () => {
            stream.opened = true;
          },
        );
      } catch (error) {
        if (synced || signal.aborted) throw error;
        // As client-go, also from '': a consistent read the apiserver's watch cache did not
        // catch up with in time is answered "too large"; that streams again, it does not LIST.
        if (isGone(error) || isTooLargeResourceVersionError(error)) {
          this.#lastVersionUnavailable = true;
          this.#logger.info(
            { reflector: this.name, resourceVersion, error: describe(error) },
            'resource version unavailable; streaming the latest state',
          );
          continue;
        }
        const failed = {
          opened: stream.opened || stream.events > 0,
          events: stream.events,
          elapsedMs: this.#clock.now() - stream.startedMs,
        };
        // Otherwise (429, a refused connection, a stream that broke once under way) the
        // run loop backs off and streams again, as client-go does.
        if (this.#mode !== 'auto' || !streamFallsBackToList(error, failed)) throw error;
        this.#logger.info(
          { reflector: this.name, error: describe(error) },
          'the streaming list failed; listing instead this time',
        );
        return false;
      }
      if (synced) return true;
      // client-go streams again when a stream ends before its bookmark (a very short, empty
      // one, which falls back, throws in #watch): so does this, after the run loop's backoff.
      throw new WatchStreamError('the streaming list ended before its initial-events-end bookmark');
    }
  }

  #watchFromLast(signal: AbortSignal): Promise<void> {
    return this.#watch(
      signal,
      { resourceVersion: this.#lastResourceVersion },
      () => false,
      () => true,
    );
  }

  /**
   * One watch. `special` may consume an event (returning true) before normal handling;
   * resource versions are only recorded while `tracking()` (not during the initial events
   * of a streaming list, which come in no version order). Resolves when the server ends
   * the stream after a useful watch; a very short, empty watch is a failure.
   */
  async #watch(
    signal: AbortSignal,
    options: {
      resourceVersion: string;
      sendInitialEvents?: boolean;
      resourceVersionMatch?: 'NotOlderThan';
    },
    special: (event: WatchEvent<T>) => boolean,
    tracking: () => boolean,
    opened?: () => void,
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
        idleTimeoutMs: timeoutSeconds * 1000 + WATCH_TIMEOUT_GRACE_MS,
        ...(this.#parsing.dropManagedFields === true && { dropManagedFields: true }),
        signal,
        onOpen: () => {
          opened?.();
          this.#unwatchedSinceMs = undefined;
          this.#state = tracking() ? 'watching' : 'listing';
        },
      },
      (event) => {
        events++;
        this.#lastEventAtMs = this.#clock.now();
        if (this.#state === 'listing' && tracking()) this.#state = 'watching';
        if (special(event)) {
          if (!tracking()) return;
          this.#noteVersion(event.object);
          // The initial-events-end bookmark: the state is delivered, and the stream watches on.
          this.#state = 'watching';
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
            const status = event.object as ApiStatus;
            if (isExpiredStatus(status)) {
              throw new ResourceExpiredError(
                `watch: ${status.message ?? 'resource version expired'}`,
                options.resourceVersion,
                status,
              );
            }
            throw new ApiStatusError(status.code ?? 0, status, `WATCH ${this.name}`);
          }
          default:
            throw new WatchStreamError(`unknown watch event type ${JSON.stringify(event.type)}`);
        }
        if (tracking()) this.#noteVersion(event.object);
      },
    );
    this.#unwatched();
    if (events === 0 && this.#clock.now() - started < SHORT_WATCH_MS && !signal.aborted) {
      throw new WatchStreamError('very short watch: the server closed it at once without an event');
    }
  }

  #noteVersion(obj: KubeObject): void {
    const rv = obj?.metadata?.resourceVersion;
    if (rv) this.#lastResourceVersion = rv;
  }
}
