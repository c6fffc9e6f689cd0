//! Predicates: which informer events reach the queue (controller-runtime's `pkg/predicate`).

import type { KubeObject } from '@ctrlkit/client';
import { type LabelSelectorLike, toLabelMatcher } from '../informers/label-selector.js';

/** An object was added (or listed at start, `isInInitialList`). */
export interface CreateEvent<T> {
  object: T;
  isInInitialList?: boolean;
}
/** An object changed: its state before and after. */
export interface UpdateEvent<T> {
  objectOld: T;
  objectNew: T;
}
/** An object was deleted; `deleteStateUnknown` when the watch missed its final state (a tombstone). */
export interface DeleteEvent<T> {
  object: T;
  deleteStateUnknown: boolean;
}
/** An event from outside the cluster (a timer, an external system). */
export interface GenericEvent<T> {
  object: T;
}

/**
 * Decides, per event, whether it is enqueued (controller-runtime's `predicate.Predicate`).
 * Give predicates to `Controller.watch(source, { predicates })`: an event passes when
 * every predicate returns true.
 */
export interface Predicate<T> {
  create(event: CreateEvent<T>): boolean;
  update(event: UpdateEvent<T>): boolean;
  delete(event: DeleteEvent<T>): boolean;
  generic(event: GenericEvent<T>): boolean;
}

/** The functions of {@link predicateFuncs}; a missing one lets its events pass. */
export interface PredicateFuncs<T> {
  create?: (event: CreateEvent<T>) => boolean;
  update?: (event: UpdateEvent<T>) => boolean;
  delete?: (event: DeleteEvent<T>) => boolean;
  generic?: (event: GenericEvent<T>) => boolean;
}

/** A predicate from functions per event type, each true when absent (controller-runtime's `predicate.Funcs`). */
export function predicateFuncs<T>(funcs: PredicateFuncs<T>): Predicate<T> {
  return {
    create: (event) => funcs.create?.(event) ?? true,
    update: (event) => funcs.update?.(event) ?? true,
    delete: (event) => funcs.delete?.(event) ?? true,
    generic: (event) => funcs.generic?.(event) ?? true,
  };
}

/** A predicate that applies `filter` to the object of every event, the new one on update (`NewPredicateFuncs`). */
export function newPredicateFuncs<T>(filter: (object: T) => boolean): Predicate<T> {
  return {
    create: (event) => filter(event.object),
    update: (event) => filter(event.objectNew),
    delete: (event) => filter(event.object),
    generic: (event) => filter(event.object),
  };
}

/** Lets updates through only when `changed(old, new)`; both objects must be present. */
function updatesWhen<T extends KubeObject>(
  changed: (oldObject: T, newObject: T) => boolean,
): Predicate<T> {
  return predicateFuncs<T>({
    update: ({ objectOld, objectNew }) =>
      objectOld != null && objectNew != null && changed(objectOld, objectNew),
  });
}

/**
 * Skips updates that leave `metadata.generation` unchanged, i.e. that change only
 * metadata or status (controller-runtime's `GenerationChangedPredicate`). Creates,
 * deletes and generic events pass. Caveats: objects without a generation (ConfigMaps)
 * never pass an update; with finalizers, the update that adds one is skipped too.
 */
export function generationChangedPredicate<T extends KubeObject>(): Predicate<T> {
  return updatesWhen<T>((o, n) => o.metadata?.generation !== n.metadata?.generation);
}

/** Passes updates whose `metadata.resourceVersion` changed, so resyncs are skipped (`ResourceVersionChangedPredicate`). */
export function resourceVersionChangedPredicate<T extends KubeObject>(): Predicate<T> {
  return updatesWhen<T>((o, n) => o.metadata?.resourceVersion !== n.metadata?.resourceVersion);
}

/** Passes updates whose labels changed (`LabelChangedPredicate`); none and `{}` are equal. */
export function labelChangedPredicate<T extends KubeObject>(): Predicate<T> {
  return updatesWhen<T>((o, n) => !sameMap(o.metadata?.labels, n.metadata?.labels));
}

/** Passes updates whose annotations changed (`AnnotationChangedPredicate`); none and `{}` are equal. */
export function annotationChangedPredicate<T extends KubeObject>(): Predicate<T> {
  return updatesWhen<T>((o, n) => !sameMap(o.metadata?.annotations, n.metadata?.annotations));
}

/**
 * Passes events of objects whose labels match `selector` (a `V1LabelSelector`, its string
 * form or a function), the new object on update (`LabelSelectorPredicate`).
 */
export function labelSelectorPredicate<T extends KubeObject>(
  selector: LabelSelectorLike,
): Predicate<T> {
  const matches = toLabelMatcher(selector);
  return newPredicateFuncs<T>((object) => matches(object.metadata?.labels ?? {}));
}

/** Passes an event when every predicate passes it (`predicate.And`); none: all pass. */
export function and<T>(...predicates: Predicate<T>[]): Predicate<T> {
  return {
    create: (event) => predicates.every((p) => p.create(event)),
    update: (event) => predicates.every((p) => p.update(event)),
    delete: (event) => predicates.every((p) => p.delete(event)),
    generic: (event) => predicates.every((p) => p.generic(event)),
  };
}

/** Passes an event when any predicate passes it (`predicate.Or`); none: nothing passes. */
export function or<T>(...predicates: Predicate<T>[]): Predicate<T> {
  return {
    create: (event) => predicates.some((p) => p.create(event)),
    update: (event) => predicates.some((p) => p.update(event)),
    delete: (event) => predicates.some((p) => p.delete(event)),
    generic: (event) => predicates.some((p) => p.generic(event)),
  };
}

/** Passes an event when `predicate` does not (`predicate.Not`). */
export function not<T>(predicate: Predicate<T>): Predicate<T> {
  return {
    create: (event) => !predicate.create(event),
    update: (event) => !predicate.update(event),
    delete: (event) => !predicate.delete(event),
    generic: (event) => !predicate.generic(event),
  };
}

/** Go's `maps.Equal`: same keys and values; absent and empty are equal. */
function sameMap(
  a: Record<string, string> | undefined,
  b: Record<string, string> | undefined,
): boolean {
  const aKeys = Object.keys(a ?? {});
  if (aKeys.length !== Object.keys(b ?? {}).length) return false;
  return aKeys.every((key) => b !== undefined && Object.hasOwn(b, key) && b[key] === a?.[key]);
}
