/**
 * `@ctrlkit/expectations/informer`: lowers expectations from an informer's events, so a
 * controller does no bookkeeping by hand. Structural types only: any informer with
 * `onAdd`/`onDelete` (and optionally `onUpdate`) registration, or one
 * `addEventHandler({ onAdd, onUpdate, onDelete })` (`@ctrlkit/runtime`'s
 * `SharedIndexInformer`), works, with no run-time dependency on `@ctrlkit/runtime`.
 *
 * - {@link bindControllerExpectations}: adds are `creationObserved`, deletes
 *   `deletionObserved`.
 * - {@link bindUIDTrackingExpectations}: the same, by object, and terminating objects count
 *   as deleted.
 * - {@link bindExpectationsStore}: deletes are `observeDeletions` (syncs cover adds).
 * - {@link controllerRefKey}: the default controller key of an object, "namespace/name" of
 *   its controller owner reference ({@link BindOptions} changes it).
 *
 * A first program:
 * ```ts
 * import { ControllerExpectations } from '@ctrlkit/expectations';
 * import { bindControllerExpectations } from '@ctrlkit/expectations/informer';
 *
 * const expectations = new ControllerExpectations();
 * const unbind = bindControllerExpectations(podInformer, expectations, { ownerKind: 'ReplicaSet' });
 * ```
 *
 * @packageDocumentation
 */

export {
  type BindOptions,
  bindControllerExpectations,
  bindExpectationsStore,
  bindUIDTrackingExpectations,
  type ControlleeEventHandlers,
  type ControlleeInformer,
  type ControlleeObject,
  controllerRefKey,
  type HandlerSetInformer,
  type OwnerReferenceLike,
  type PerEventInformer,
  type Unbind,
} from './bind-informer.js';
