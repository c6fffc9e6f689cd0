/**
 * `@ctrlkit/runtime/testing`: fakes for testing a controller without an API server.
 *
 * - {@link FakeListWatch}: a `ListWatch` over objects held in memory that answers
 *   `resourceVersion`, pages, continue tokens and watches as the apiserver does, with
 *   levers for faults (failed calls, broken watches, compaction, ERROR events). Give it to
 *   a `SharedIndexInformer` or `Reflector` (`@ctrlkit/runtime/informers`).
 * - {@link FakeRecorder}: an event recorder that keeps what it is given, as client-go's
 *   `record.FakeRecorder` (for code that takes an `EventRecorderLike`).
 * - {@link FreezingProxy}: a TCP proxy in front of an apiserver that can freeze its open
 *   connections (forward nothing, close nothing): a half-open connection, for fault tests.
 * - `FakeClock`: `@ctrlkit/core/testing`'s, re-exported.
 *
 * A first test:
 * ```ts
 * import { SharedIndexInformer } from '@ctrlkit/runtime/informers';
 * import { FakeClock, FakeListWatch, FakeRecorder } from '@ctrlkit/runtime/testing';
 *
 * const listWatch = new FakeListWatch<V1ConfigMap>();
 * listWatch.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
 * const informer = new SharedIndexInformer({ listWatch, clock: new FakeClock() });
 * void informer.run(signal);
 * const recorder = new FakeRecorder(); // recorder.events: 'Normal Synced a is in step', …
 * ```
 *
 * @packageDocumentation
 */

export { FreezingProxy } from '@ctrlkit/client/testing';
export { FakeClock } from '@ctrlkit/core/testing';
export { FakeListWatch } from './testing/fake-list-watch.js';
export { FakeRecorder } from './testing/fake-recorder.js';
