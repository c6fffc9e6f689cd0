//! What a controller needs of an informer: handlers for adds, updates and deletes.

/** The object shape the controller reads: metadata only. */
export interface ObjectWithMetadata {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    ownerReferences?: Array<{
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
    }>;
  };
}

/** A deleted object whose final state the watch missed (client-go's `DeletedFinalStateUnknown`). */
export interface TombstoneLike {
  key: string;
  obj: unknown;
}

/** Event handlers, as an informer calls them. */
export interface EventHandlers<T> {
  onAdd?(obj: T, isInInitialList?: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | TombstoneLike): void;
}

/**
 * The part of a shared informer a controller uses (structural, so any informer with
 * these methods works): handler registration and the initial sync. When
 * `addEventHandler` returns a registration with `hasSynced()`, the controller waits for
 * that (its handler has seen the initial list); otherwise for the informer's `hasSynced()`.
 */
export interface EventSource<T> {
  addEventHandler(handlers: EventHandlers<T>): unknown;
  hasSynced(): boolean;
}
