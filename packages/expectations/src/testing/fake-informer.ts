//! An informer whose events a test emits by hand, with the registration the `./informer` adapter needs.

import type { DeletedFinalStateUnknown } from '../controllee-key-func.js';

type Handler<A extends unknown[]> = (...args: A) => void;

/**
 * An informer whose events a test emits by hand: it has the `onAdd`/`onUpdate`/`onDelete`
 * registration the `./informer` adapter needs, each returning an unsubscribe function.
 */
export class FakeInformer<T> {
  readonly #add = new Set<Handler<[T]>>();
  readonly #update = new Set<Handler<[T, T]>>();
  readonly #delete = new Set<Handler<[T | DeletedFinalStateUnknown<T>]>>();

  /** Registers an add handler; returns its unsubscribe function. */
  onAdd(handler: (obj: T) => void): () => void {
    return subscribe(this.#add, handler);
  }

  /** Registers an update handler; returns its unsubscribe function. */
  onUpdate(handler: (oldObj: T, newObj: T) => void): () => void {
    return subscribe(this.#update, handler);
  }

  /** Registers a delete handler (it may receive a tombstone); returns its unsubscribe function. */
  onDelete(handler: (obj: T | DeletedFinalStateUnknown<T>) => void): () => void {
    return subscribe(this.#delete, handler);
  }

  /** The number of handlers registered, of all kinds. */
  get handlerCount(): number {
    return this.#add.size + this.#update.size + this.#delete.size;
  }

  /** Delivers an add event. */
  emitAdd(obj: T): void {
    for (const h of [...this.#add]) h(obj);
  }

  /** Delivers an update event. */
  emitUpdate(oldObj: T, newObj: T): void {
    for (const h of [...this.#update]) h(oldObj, newObj);
  }

  /** Delivers a delete event: the object, or a tombstone `{ key, obj }`. */
  emitDelete(obj: T | DeletedFinalStateUnknown<T>): void {
    for (const h of [...this.#delete]) h(obj);
  }
}

function subscribe<H>(set: Set<H>, handler: H): () => void {
  set.add(handler);
  return () => {
    set.delete(handler);
  };
}
