/**
 * Lowers expectations from an informer's events, so a controller does no bookkeeping by
 * hand. Structural types only: any informer with `onAdd`/`onDelete` (and optionally
 * `onUpdate`) registration works, with no run-time dependency on `@ctrlkit/runtime`.
 */

import {
  controlleeKeyFunc,
  type DeletedFinalStateUnknown,
  isDeletedFinalStateUnknown,
} from './controllee-key-func.js';
import type { ControllerExpectationsInterface } from './controller-expectations.js';
import type { ExpectationsStore } from './expectations-store.js';
import { type Logger, noopLogger } from './logger.js';
import type { UIDTrackingControllerExpectations } from './uid-tracking-controller-expectations.js';

/** The part of an owner reference the adapter reads. */
export interface OwnerReferenceLike {
  kind?: string | undefined;
  name?: string | undefined;
  controller?: boolean | undefined;
}

/** The part of a Kubernetes object the adapter reads (a `V1Pod` fits). */
export interface ControlleeObject {
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
 * An informer as the adapter needs it: handler registration for add and delete events
 * (delete handlers may receive a tombstone), and optionally update events. A registration
 * may return an unsubscribe function, which the returned unbind calls.
 */
export interface ControlleeInformer<T> {
  /** Registers a handler for objects added to the cache. */
  onAdd(handler: (obj: T) => void): unknown;
  /** Registers a handler for objects removed from the cache, or their tombstones. */
  onDelete(handler: (obj: T | DeletedFinalStateUnknown<T>) => void): unknown;
  /** Registers a handler for updated objects; used only by `bindUIDTrackingExpectations`. */
  onUpdate?(handler: (oldObj: T, newObj: T) => void): unknown;
}

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
  const ctx = context(options);
  return unbindAll([
    informer.onAdd(
      ctx.guard('add', (obj: T) => {
        const key = ctx.keyOf(obj);
        if (key === undefined) return;
        ctx.logger.debug({ key, uids: [controlleeKeyFunc(obj)] }, 'creation observed');
        expectations.creationObserved(key);
      }),
    ),
    informer.onDelete(
      ctx.guard('delete', (event: T | DeletedFinalStateUnknown<T>) => {
        const key = ctx.keyOf(unwrap(event));
        if (key === undefined) return;
        ctx.logger.debug({ key, uids: [controlleeKeyFunc(event)] }, 'deletion observed');
        expectations.deletionObserved(key);
      }),
    ),
  ]);
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
  const ctx = context(options);
  const deleted = (obj: T | DeletedFinalStateUnknown<T>, key: string): void => {
    const objectKey = controlleeKeyFunc(obj);
    ctx.logger.debug({ key, uids: [objectKey] }, 'deletion observed');
    expectations.deletionObserved(key, objectKey);
  };
  const registrations = [
    informer.onAdd(
      ctx.guard('add', (obj: T) => {
        const key = ctx.keyOf(obj);
        if (key === undefined) return;
        ctx.logger.debug({ key, uids: [controlleeKeyFunc(obj)] }, 'creation observed');
        expectations.creationObserved(key);
        if (isTerminating(obj)) deleted(obj, key);
      }),
    ),
    informer.onDelete(
      ctx.guard('delete', (event: T | DeletedFinalStateUnknown<T>) => {
        const key = ctx.keyOf(unwrap(event));
        if (key !== undefined) deleted(event, key);
      }),
    ),
  ];
  if (typeof informer.onUpdate === 'function') {
    registrations.push(
      informer.onUpdate(
        ctx.guard('update', (oldObj: T, newObj: T) => {
          if (isTerminating(oldObj) || !isTerminating(newObj)) return;
          const key = ctx.keyOf(newObj);
          if (key !== undefined) deleted(newObj, key);
        }),
      ),
    );
  }
  return unbindAll(registrations);
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
  const ctx = context(options);
  return unbindAll([
    informer.onDelete(
      ctx.guard('delete', (event: T | DeletedFinalStateUnknown<T>) => {
        const obj = unwrap(event);
        const key = ctx.keyOf(obj);
        const uid = obj?.metadata?.uid;
        if (key === undefined || uid === undefined || uid === '') return;
        store.observeDeletions(key, [uid], ctx.logger);
      }),
    ),
  ]);
}

interface Context<T> {
  readonly logger: Logger;
  keyOf(obj: T | undefined): string | undefined;
  guard<A extends unknown[]>(event: string, handler: (...args: A) => void): (...args: A) => void;
}

function context<T extends ControlleeObject>(options: BindOptions<T>): Context<T> {
  const logger = options.logger ?? noopLogger;
  const { controllerKeyOf, ownerKind } = options;
  return {
    logger,
    keyOf: (obj) => {
      if (obj === undefined || obj === null || typeof obj !== 'object') return undefined;
      return controllerKeyOf ? controllerKeyOf(obj) : controllerRefKey(obj, ownerKind);
    },
    // An informer handler must not throw: a failure is logged and the event skipped.
    guard:
      (event, handler) =>
      (...args) => {
        try {
          handler(...args);
        } catch (err) {
          logger.error({ event, err }, 'expectations handler failed; event skipped');
        }
      },
  };
}

function unwrap<T>(event: T | DeletedFinalStateUnknown<T>): T | undefined {
  return isDeletedFinalStateUnknown(event) ? (event.obj as T | undefined) : event;
}

function isTerminating(obj: ControlleeObject): boolean {
  const ts = obj.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null;
}

function unbindAll(registrations: unknown[]): Unbind {
  return () => {
    for (const r of registrations) if (typeof r === 'function') r();
  };
}
