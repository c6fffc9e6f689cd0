//! An in-memory ListWatch for tests (client-go's `tools/cache/testing` fake source): a resource's objects, history, pages and watches, with levers for faults.

import {
  ApiStatusError,
  type KubeObject,
  type ObjectList,
  ResourceExpiredError,
} from '@ctrlkit/client';
import { CAUSE_RESOURCE_VERSION_TOO_LARGE } from '../informers/errors/resource-version-unavailable.js';
import { metaNamespaceKeyFunc } from '../informers/key-func.js';
import type {
  ListRequestOptions,
  ListWatch,
  WatchEvent,
  WatchRequestOptions,
} from '../informers/list-watch.js';
import { INITIAL_EVENTS_END_ANNOTATION } from '../informers/reflector.js';

interface ActiveWatch<T extends KubeObject> {
  onEvent: (event: WatchEvent<T>) => void;
  end: (error?: unknown) => void;
}

/**
 * A ListWatch over objects held in memory that answers `resourceVersion` as the apiserver
 * does, so a test catches a reflector asking for the wrong one:
 * - LIST at `'0'`: any state; with {@link FakeListWatch.watchCache} (the default, as in
 *   production) the whole state in one page whatever the `limit`, else in pages;
 * - LIST at `''`: the latest state, in pages of `limit` (a quorum read from etcd);
 * - LIST at a version: a state at least that new (the whole of it in one page from the
 *   watch cache when `limit` is unset, else in pages); newer than the current one: 504
 *   with the `ResourceVersionTooLarge` cause; `resourceVersionMatch=Exact` is served at
 *   the current version only (older: 410 Gone when compacted, else an error saying so);
 * - continue tokens hold the version of their list and expire (410) when compacted;
 * - WATCH from a version replays the history after it (410 when compacted, 504 when newer
 *   than the current one); from `''` or `'0'` it starts with an ADDED event per object;
 *   with `sendInitialEvents` (when {@link FakeListWatch.supportsStreaming}) it sends the
 *   state at least as new as the version, then the initial-events-end bookmark.
 *
 * Levers for faults: failing the next calls, ending or breaking open watches, compacting
 * the history, sending ERROR events.
 */
export class FakeListWatch<T extends KubeObject = KubeObject> implements ListWatch<T> {
  /** Every list call's options, in order. */
  readonly listCalls: ListRequestOptions[] = [];
  /** Every watch call's options, in order. */
  readonly watchCalls: WatchRequestOptions[] = [];
  /** Whether `sendInitialEvents` is served (else 422). Default false. */
  supportsStreaming = false;
  /** Called with each list call's options before it is answered (e.g. to compact between pages). */
  beforeList: ((options: ListRequestOptions) => void) | undefined;
  /** Whether the apiserver has its watch cache for this resource (lists at `'0'` ignore `limit`). Default true. */
  watchCache = true;
  readonly #objects = new Map<string, T>();
  readonly #history: Array<{ rv: number; event: WatchEvent<T> }> = [];
  readonly #active = new Set<ActiveWatch<T>>();
  readonly #listFailures: unknown[] = [];
  readonly #watchFailures: unknown[] = [];
  /** The objects of paginated lists, by the version of the list, for their continue pages. */
  readonly #snapshots = new Map<number, T[]>();
  #rv = 1;
  #compactedRv = 0;

  /** The current resource version. */
  get resourceVersion(): string {
    return String(this.#rv);
  }

  /** How many watches are open. */
  get openWatches(): number {
    return this.#active.size;
  }

  /** Creates or replaces an object (ADDED or MODIFIED); returns the stored copy with its version. */
  apply(obj: T): T {
    const key = metaNamespaceKeyFunc(obj);
    const exists = this.#objects.has(key);
    const stored = this.#stamp(obj);
    this.#objects.set(key, stored);
    this.#emit({ type: exists ? 'MODIFIED' : 'ADDED', object: stored });
    return stored;
  }

  /** Deletes an object (DELETED). */
  remove(namespace: string, name: string): void {
    const key = namespace ? `${namespace}/${name}` : name;
    const old = this.#objects.get(key);
    if (old === undefined) return;
    this.#objects.delete(key);
    this.#emit({ type: 'DELETED', object: this.#stamp(old) });
  }

  /** Sends a bookmark at the current version to open watches. */
  bookmark(): void {
    const event = {
      type: 'BOOKMARK',
      object: { metadata: { resourceVersion: String(this.#rv) } } as T,
    };
    for (const watch of this.#active) watch.onEvent(event);
  }

  /** Forgets the history up to now: a watch from an older version gets 410 Gone. */
  compact(): void {
    this.#compactedRv = this.#rv;
    this.#history.length = 0;
    this.#snapshots.clear();
  }

  /**
   * Sets the current version back to `resourceVersion` (etcd restored from a backup): a
   * client holding a newer version is answered 504 "too large resource version".
   */
  restore(resourceVersion: number): void {
    this.#rv = resourceVersion;
    this.#compactedRv = resourceVersion;
    this.#history.length = 0;
    this.#snapshots.clear();
  }

  /** Sends an ERROR event with `status` to open watches. */
  sendError(status: { code: number; reason?: string; message?: string }): void {
    for (const watch of this.#active)
      watch.onEvent({ type: 'ERROR', object: status as unknown as T });
  }

  /** Ends open watches normally (the server's timeout). */
  closeWatches(): void {
    for (const watch of [...this.#active]) watch.end();
  }

  /** Breaks open watches with `error` (a dropped connection). */
  breakWatches(error: unknown = new Error('connection reset')): void {
    for (const watch of [...this.#active]) watch.end(error);
  }

  /** The next list call throws `error`. */
  failNextList(error: unknown): void {
    this.#listFailures.push(error);
  }

  /** The next watch call throws `error`. */
  failNextWatch(error: unknown): void {
    this.#watchFailures.push(error);
  }

  async list(options: ListRequestOptions): Promise<ObjectList<T>> {
    this.listCalls.push(options);
    await Promise.resolve();
    this.beforeList?.(options);
    if (this.#listFailures.length > 0) throw this.#listFailures.shift();
    let snapshot: { rv: number; items: T[] };
    let offset = 0;
    if (options.continue) {
      if (options.resourceVersion || options.resourceVersionMatch) {
        throw new ApiStatusError(
          400,
          {
            reason: 'BadRequest',
            message: 'specifying resource version is not allowed when using continue',
          },
          'LIST',
        );
      }
      const [rv, at] = options.continue.split(':').map(Number) as [number, number];
      const kept = this.#snapshots.get(rv);
      if (rv < this.#compactedRv || kept === undefined) {
        throw new ResourceExpiredError(`the continue token of version ${rv} has expired`);
      }
      snapshot = { rv, items: kept };
      offset = at;
    } else {
      const rv = options.resourceVersion ?? '';
      if (rv !== '' && rv !== '0') {
        const asked = Number(rv);
        if (asked > this.#rv) throw tooLarge(asked, this.#rv, 'LIST');
        if (options.resourceVersionMatch === 'Exact' && asked !== this.#rv) {
          if (asked < this.#compactedRv)
            throw new ResourceExpiredError(`too old resource version: ${asked}`, rv);
          throw new Error(
            'FakeListWatch serves resourceVersionMatch=Exact at the current version only',
          );
        }
      }
      snapshot = { rv: this.#rv, items: this.#state() };
    }
    const fromCache =
      this.watchCache &&
      !options.continue &&
      (options.resourceVersion === '0' || (!!options.resourceVersion && !options.limit));
    const limit = fromCache ? 0 : (options.limit ?? 0);
    const end = limit ? Math.min(snapshot.items.length, offset + limit) : snapshot.items.length;
    if (end < snapshot.items.length) this.#snapshots.set(snapshot.rv, snapshot.items);
    const items = snapshot.items.slice(offset, end).map((item) => {
      const copy = structuredClone(item);
      delete copy.kind;
      delete copy.apiVersion;
      return copy;
    });
    return {
      apiVersion: 'v1',
      kind: 'ConfigMapList',
      metadata: {
        resourceVersion: String(snapshot.rv),
        continue: end < snapshot.items.length ? `${snapshot.rv}:${end}` : undefined,
      },
      items,
    };
  }

  watch(options: WatchRequestOptions, onEvent: (event: WatchEvent<T>) => void): Promise<void> {
    this.watchCalls.push(options);
    return new Promise<void>((resolve, reject) => {
      const watch: ActiveWatch<T> = {
        onEvent: (event) => {
          try {
            onEvent(event);
          } catch (error) {
            watch.end(error);
          }
        },
        end: (error) => {
          if (!this.#active.delete(watch)) return;
          if (error === undefined) resolve();
          else reject(error);
        },
      };
      queueMicrotask(() => {
        if (this.#watchFailures.length > 0) return reject(this.#watchFailures.shift());
        if (options.signal?.aborted) return resolve();
        options.signal?.addEventListener('abort', () => watch.end(), { once: true });
        const asked = options.resourceVersion || '';
        if (asked !== '' && asked !== '0' && Number(asked) > this.#rv) {
          return reject(tooLarge(Number(asked), this.#rv, 'WATCH'));
        }
        if (options.sendInitialEvents) {
          if (!this.supportsStreaming) {
            return reject(
              new ApiStatusError(
                422,
                { reason: 'Invalid', message: 'sendInitialEvents is forbidden' },
                'WATCH',
              ),
            );
          }
          options.onOpen?.();
          this.#active.add(watch);
          for (const object of this.#state()) {
            watch.onEvent({ type: 'ADDED', object: structuredClone(object) });
          }
          watch.onEvent({
            type: 'BOOKMARK',
            object: {
              metadata: {
                resourceVersion: String(this.#rv),
                annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' },
              },
            } as unknown as T,
          });
          return;
        }
        if (asked === '' || asked === '0') {
          options.onOpen?.();
          this.#active.add(watch);
          for (const object of this.#state()) {
            watch.onEvent({ type: 'ADDED', object: structuredClone(object) });
          }
          return;
        }
        const from = Number(asked);
        if (from < this.#compactedRv) {
          return reject(
            new ResourceExpiredError(`too old resource version: ${from}`, String(from)),
          );
        }
        options.onOpen?.();
        this.#active.add(watch);
        for (const entry of this.#history) {
          if (entry.rv > from && this.#active.has(watch))
            watch.onEvent(structuredClone(entry.event));
        }
      });
    });
  }

  /** The objects, sorted by key. */
  #state(): T[] {
    return [...this.#objects.keys()].sort().map((key) => this.#objects.get(key) as T);
  }

  #stamp(obj: T): T {
    this.#rv++;
    return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(this.#rv) } };
  }

  #emit(event: WatchEvent<T>): void {
    this.#history.push({ rv: this.#rv, event });
    for (const watch of [...this.#active]) watch.onEvent(structuredClone(event));
  }
}

/** The apiserver's answer to a version newer than it has: 504 with the `ResourceVersionTooLarge` cause. */
function tooLarge(asked: number, current: number, verb: string): ApiStatusError {
  return new ApiStatusError(
    504,
    {
      code: 504,
      reason: 'Timeout',
      message: `Too large resource version: ${asked}, current: ${current}`,
      details: {
        causes: [
          { reason: CAUSE_RESOURCE_VERSION_TOO_LARGE, message: 'Too large resource version' },
        ],
      },
    },
    verb,
  );
}
