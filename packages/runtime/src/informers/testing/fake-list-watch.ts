//! An in-memory ListWatch for unit tests: a resource's objects, history, pages and watches.

import type { KubernetesObject } from '@kubernetes/client-node';
import { ApiStatusError } from '../errors/api-status-error.js';
import { ResourceExpiredError } from '../errors/resource-expired-error.js';
import { metaNamespaceKeyFunc } from '../key-func.js';
import type {
  ListRequestOptions,
  ListWatch,
  ObjectList,
  WatchEvent,
  WatchRequestOptions,
} from '../list-watch.js';
import { INITIAL_EVENTS_END_ANNOTATION } from '../reflector.js';

interface ActiveWatch<T extends KubernetesObject> {
  onEvent: (event: WatchEvent<T>) => void;
  end: (error?: unknown) => void;
}

/**
 * A ListWatch over objects held in memory, with resource versions, paginated lists, a
 * change history that watches replay from, and levers for faults: failing the next
 * calls, ending or breaking open watches, and compacting the history (410 Gone).
 */
export class FakeListWatch<T extends KubernetesObject = KubernetesObject> implements ListWatch<T> {
  /** Every list call's options, in order. */
  readonly listCalls: ListRequestOptions[] = [];
  /** Every watch call's options, in order. */
  readonly watchCalls: WatchRequestOptions[] = [];
  /** Whether `sendInitialEvents` is served (else 422). Default false. */
  supportsStreaming = false;
  readonly #objects = new Map<string, T>();
  readonly #history: Array<{ rv: number; event: WatchEvent<T> }> = [];
  readonly #active = new Set<ActiveWatch<T>>();
  readonly #listFailures: unknown[] = [];
  readonly #watchFailures: unknown[] = [];
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
    if (this.#listFailures.length > 0) throw this.#listFailures.shift();
    const keys = [...this.#objects.keys()].sort();
    const offset = options.continue ? Number(options.continue) : 0;
    const end = options.limit ? Math.min(keys.length, offset + options.limit) : keys.length;
    const items = keys
      .slice(offset, end)
      .map((key) => structuredClone(this.#objects.get(key) as T));
    for (const item of items) {
      delete item.kind;
      delete item.apiVersion;
    }
    return {
      apiVersion: 'v1',
      kind: 'ConfigMapList',
      metadata: {
        resourceVersion: String(this.#rv),
        continue: end < keys.length ? String(end) : undefined,
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
          this.#active.add(watch);
          for (const key of [...this.#objects.keys()].sort()) {
            watch.onEvent({ type: 'ADDED', object: structuredClone(this.#objects.get(key) as T) });
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
        const from = Number(options.resourceVersion || this.#rv);
        if (from < this.#compactedRv) {
          return reject(
            new ResourceExpiredError(`too old resource version: ${from}`, String(from)),
          );
        }
        this.#active.add(watch);
        for (const entry of this.#history) {
          if (entry.rv > from && this.#active.has(watch))
            watch.onEvent(structuredClone(entry.event));
        }
      });
    });
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
