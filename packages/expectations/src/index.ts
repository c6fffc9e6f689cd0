/**
 * `@ctrlkit/expectations`: remember what a controller just created or deleted until its
 * informer cache shows it, so it never acts twice on a stale view. Two styles, from the two
 * upstreams:
 *
 * - **A barrier** (KubeVirt, kube-controller-manager): {@link ControllerExpectations}
 *   counts the creates and deletes in flight per controller key, and a reconcile waits
 *   until `satisfiedExpectations(key)`; {@link UIDTrackingControllerExpectations} also
 *   tracks which objects are being deleted. {@link BurstReplicas} caps one sync's writes.
 * - **A store** (Grove): {@link ExpectationsStore} keeps the UIDs of writes in flight and is
 *   synced from the cache, so a reconcile corrects its arithmetic instead of waiting.
 * - Keys: {@link expKeyFunc}, {@link uidSetKeyFunc}, {@link controlleeKeyFunc}; errors:
 *   {@link KeyFuncError}, {@link ExpectationsError}.
 *
 * Where the rest lives: `@ctrlkit/expectations/informer` lowers expectations from an
 * informer's events; `@ctrlkit/expectations/testing` has `FakeInformer` and
 * `RecordingLogger`; `@ctrlkit/expectations/kubevirt-reasons` has KubeVirt's VMI
 * controller reason constants. `Clock`, `Logger`, `InvalidArgumentError`, `realClock` and
 * `noopLogger` are `@ctrlkit/core`'s, re-exported.
 *
 * A first program:
 * ```ts
 * import { ExpectationsStore } from '@ctrlkit/expectations';
 *
 * const store = new ExpectationsStore();
 * store.syncExpectations('default/web', cachedPodUIDs); // what the informer cache lists
 * const missing = desired - cachedPodUIDs.length - store.getCreateExpectations('default/web').length;
 * store.expectCreations('default/web', createdUIDs); // the UIDs the creates returned
 * ```
 *
 * @packageDocumentation
 */

export type { Clock, Logger, Timer } from '@ctrlkit/core';
export { InvalidArgumentError, noopLogger, realClock } from '@ctrlkit/core';
export type { Expectations } from './controllee-expectations.js';
export { ControlleeExpectations, expKeyFunc } from './controllee-expectations.js';
export type { DeletedFinalStateUnknown, KeyedObjectMeta } from './controllee-key-func.js';
export { controlleeKeyFunc, isDeletedFinalStateUnknown } from './controllee-key-func.js';
export type {
  ControllerExpectationsInterface,
  ControllerExpectationsOptions,
} from './controller-expectations.js';
export {
  BurstReplicas,
  ControllerExpectations,
  DefaultExpectationsName,
  ExpectationsTimeout,
} from './controller-expectations.js';
export type { ExpectationsErrorReason } from './expectations-error.js';
export { ExpectationsError } from './expectations-error.js';
export type { ControlleeUIDExpectations, ExpectationsStoreOptions } from './expectations-store.js';
export { ExpectationsStore } from './expectations-store.js';
export { KeyFuncError } from './key-func-error.js';
export type {
  UIDSet,
  UIDTrackingControllerExpectationsOptions,
} from './uid-tracking-controller-expectations.js';
export {
  UIDTrackingControllerExpectations,
  uidSetKeyFunc,
} from './uid-tracking-controller-expectations.js';
