//! Lowers expectations from an informer's events, so a controller does no bookkeeping by hand.

import type { Logger } from '@ctrlkit/core';
import {
  controlleeKeyFunc,
  type DeletedFinalStateUnknown,
  isDeletedFinalStateUnknown,
} from './controllee-key-func.js';
import type { ControllerExpectationsInterface } from './controller-expectations.js';
import type { ExpectationsStore } from './expectations-store.js';
import { assertHasMethods, invalid } from './internal/validate.js';
import type { UIDTrackingControllerExpectations } from './uid-tracking-controller-expectations.js';

/** The part of an owner reference the adapter reads. */
export interface OwnerReferenceLike {
  /** The owner's kind, e.g. "ReplicaSet". */
  kind?: string | undefined;
  /** The owner's name, in the object's namespace. */
  name?: string | undefined;
  /** True on the one reference that names the managing controller. */
  controller?: boolean | undefined;
}

/** The part of a Kubernetes object the adapter reads (a `V1Pod` fits). */
export interface ControlleeObject {
  /** Namespace, name, UID, deletion timestamp and owner references are read. */
  metadata?:
    | {
        namespace?: string | undefined;
        name?: string | undefined;
        uid?: string | undefined;
        deletionTimestamp?: unknown;
        ownerReferences?: readonly OwnerReferenceLike[] | undefined;
      }
    | undefined;
}

/**
 * An informer with one registration per event kind: handlers for add and delete events
 * (delete handlers may receive a tombstone), and optionally update events. A registration
 * may return an unsubscribe function, which the returned unbind calls.
 */
export interface PerEventInformer<T> {
  /** Registers a handler for objects added to the cache. */
  onAdd(handler: (obj: T) => void): unknown;
  /** Registers a handler for objects removed from the cache, or their tombstones. */
  onDelete(handler: (obj: T | DeletedFinalStateUnknown<T>) => void): unknown;
  /** Registers a handler for updated objects; used only by `bindUIDTrackingExpectations`. */
  onUpdate?(handler: (oldObj: T, newObj: T) => void): unknown;
}

/** The `onAdd`/`onUpdate`/`onDelete` handlers of a client-go style registration. */
export interface ControlleeEventHandlers<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

/**
 * A client-go style informer (`@ctrlkit/runtime`'s `SharedIndexInformer` fits): one
 * `addEventHandler` call registers every handler; the registration's `remove()` (or a
 * returned function) unsubscribes.
 */
export interface HandlerSetInformer<T> {
  addEventHandler(handlers: ControlleeEventHandlers<T>): unknown;
}

/** An informer as the adapter needs it: either registration style. */
export type ControlleeInformer<T> = PerEventInformer<T> | HandlerSetInformer<T>;

/** Options of the `bind*` functions. */
export interface BindOptions<T> {
  /**
   * The controller key an object's events count for, or `undefined` to ignore the object.
   * Default: `controllerRefKey(obj, ownerKind)`, "namespace/name" of the object's
   * controller owner reference.
   */
  controllerKeyOf?: (obj: T) => string | undefined;
  /** Count only objects whose controller owner has this kind. Default: any kind. Ignored with `controllerKeyOf`. */
  ownerKind?: string;
  /** Receives a debug line per event counted and an error line per handler failure. Default: none. */
  logger?: Logger;
}

/** Removes the handlers a `bind*` call registered (where the informer returned unsubscribers). */
export type Unbind = () => void;

/**
 * The "namespace/name" key of the controller that owns `obj` (its owner reference with
 * `controller: true`), or `undefined` when it has none, or one of another `ownerKind`.
 */
export function controllerRefKey(obj: ControlleeObject, ownerKind?: string): string | undefined {
  const meta = obj.metadata;
  const ref = meta?.ownerReferences?.find((r) => r.controller === true);
  if (ref?.name === undefined || ref.name === '') return undefined;
  if (ownerKind !== undefined && ref.kind !== ownerKind) return undefined;
  return meta?.namespace ? `${meta.namespace}/${ref.name}` : ref.name;
}

/**
 * Lowers a `ControllerExpectations` from events: an add is `creationObserved`, a delete
 * (or tombstone) is `deletionObserved`, for the owning controller's key.
 */
export function bindControllerExpectations<T extends ControlleeObject>(
  informer: ControlleeInformer<T>,
  expectations: Pick<ControllerExpectationsInterface, 'creationObserved' | 'deletionObserved'>,
  options: BindOptions<T> = {},
): Unbind {
  const { logger } = options;
  return bind(informer, options, {
    added: (key, obj) => {
      logger?.debug({ key, uids: [controlleeKeyFunc(obj)] }, 'creation observed');
      expectations.creationObserved(key);
    },
    deleted: (key, event) => {
      logger?.debug({ key, uids: [controlleeKeyFunc(event)] }, 'deletion observed');
      expectations.deletionObserved(key);
    },
  });
}

/**
 * Lowers a `UIDTrackingControllerExpectations` from events: an add is `creationObserved`;
 * an object seen with a `deletionTimestamp` (added so, or updated to it) and a delete (or
 * tombstone) are `deletionObserved(key, objectKey)`, which counts once per tracked object.
 */
export function bindUIDTrackingExpectations<T extends ControlleeObject>(
  informer: ControlleeInformer<T>,
  expectations: Pick<UIDTrackingControllerExpectations, 'creationObserved' | 'deletionObserved'>,
  options: BindOptions<T> = {},
): Unbind {
  const { logger } = options;
  const deleted = (key: string, event: T | DeletedFinalStateUnknown<T>): void => {
    const objectKey = controlleeKeyFunc(event);
    logger?.debug({ key, uids: [objectKey] }, 'deletion observed');
    expectations.deletionObserved(key, objectKey);
  };
  return bind(informer, options, {
    added: (key, obj) => {
      logger?.debug({ key, uids: [controlleeKeyFunc(obj)] }, 'creation observed');
      expectations.creationObserved(key);
      if (isTerminating(obj)) deleted(key, obj);
    },
    terminated: deleted,
    deleted,
  });
}

/**
 * Lowers an `ExpectationsStore` from delete events: a delete (or tombstone) is
 * `observeDeletions(key, [uid])`. Adds need no handler: `syncExpectations` covers them.
 */
export function bindExpectationsStore<T extends ControlleeObject>(
  informer: ControlleeInformer<T>,
  store: Pick<ExpectationsStore, 'observeDeletions'>,
  options: BindOptions<T> = {},
): Unbind {
  return bind(informer, options, {
    deleted: (key, event) => {
      const uid = unwrap(event)?.metadata?.uid;
      if (uid !== undefined && uid !== '') store.observeDeletions(key, [uid], options.logger);
    },
  });
}

/** What to do, per controller key, on each kind of event; a missing reaction registers no handler. */
interface Reactions<T> {
  /** An object added to the cache. */
  added?(key: string, obj: T): void;
  /** An update that set `deletionTimestamp`. */
  terminated?(key: string, obj: T): void;
  /** An object removed from the cache, or its tombstone. */
  deleted?(key: string, event: T | DeletedFinalStateUnknown<T>): void;
}

function bind<T extends ControlleeObject>(
  informer: ControlleeInformer<T>,
  options: BindOptions<T>,
  reactions: Reactions<T>,
): Unbind {
  if (typeof (informer as HandlerSetInformer<T> | undefined)?.addEventHandler !== 'function') {
    assertHasMethods(informer, 'informer', ['onAdd', 'onDelete']);
  }
  const { controllerKeyOf, ownerKind, logger } = options;
  if (controllerKeyOf !== undefined && typeof controllerKeyOf !== 'function') {
    throw invalid('options.controllerKeyOf', controllerKeyOf, 'a function');
  }
  if (ownerKind !== undefined && (typeof ownerKind !== 'string' || ownerKind === '')) {
    throw invalid('options.ownerKind', ownerKind, 'a non-empty string');
  }
  assertHasMethods(logger, 'options.logger', ['debug', 'info', 'warn', 'error']);
  const keyOf = (obj: T | undefined): string | undefined => {
    if (obj === undefined || obj === null || typeof obj !== 'object') return undefined;
    return controllerKeyOf ? controllerKeyOf(obj) : controllerRefKey(obj, ownerKind);
  };
  // An informer handler must not throw: a failure is logged and the event skipped.
  const guard =
    <A extends unknown[]>(event: string, handler: (...args: A) => void) =>
    (...args: A): void => {
      try {
        handler(...args);
      } catch (err) {
        logger?.error({ event, err }, 'expectations handler failed; event skipped');
      }
    };
  const { added, terminated, deleted } = reactions;
  const handlers: ControlleeEventHandlers<T> = {};
  if (added) {
    handlers.onAdd = guard('add', (obj: T) => {
      const key = keyOf(obj);
      if (key !== undefined) added(key, obj);
    });
  }
  if (terminated) {
    handlers.onUpdate = guard('update', (oldObj: T, newObj: T) => {
      if (isTerminating(oldObj) || !isTerminating(newObj)) return;
      const key = keyOf(newObj);
      if (key !== undefined) terminated(key, newObj);
    });
  }
  if (deleted) {
    handlers.onDelete = guard('delete', (event: T | DeletedFinalStateUnknown<T>) => {
      const key = keyOf(unwrap(event));
      if (key !== undefined) deleted(key, event);
    });
  }
  const registrations: unknown[] = [];
  if (typeof (informer as HandlerSetInformer<T>).addEventHandler === 'function') {
    registrations.push((informer as HandlerSetInformer<T>).addEventHandler(handlers));
  } else {
    const perEvent = informer as PerEventInformer<T>;
    if (handlers.onAdd) registrations.push(perEvent.onAdd(handlers.onAdd));
    if (handlers.onUpdate && typeof perEvent.onUpdate === 'function') {
      registrations.push(perEvent.onUpdate(handlers.onUpdate));
    }
    if (handlers.onDelete) registrations.push(perEvent.onDelete(handlers.onDelete));
  }
  return () => {
    for (const r of registrations) {
      if (typeof r === 'function') r();
      else if (typeof (r as { remove?: unknown } | null)?.remove === 'function') {
        (r as { remove(): void }).remove();
      }
    }
  };
}

function unwrap<T>(event: T | DeletedFinalStateUnknown<T>): T | undefined {
  return isDeletedFinalStateUnknown(event) ? (event.obj as T | undefined) : event;
}

function isTerminating(obj: ControlleeObject): boolean {
  const ts = obj.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null;
}
