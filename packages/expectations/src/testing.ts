/**
 * `@ctrlkit/expectations/testing`: fakes for testing a controller's expectations without an
 * informer or a real clock.
 *
 * - {@link FakeInformer}: an informer whose add, update and delete events a test emits by
 *   hand, with the registration `@ctrlkit/expectations/informer` binds to.
 * - {@link RecordingLogger}: a `Logger` that keeps every line ({@link LogEntry}).
 * - `FakeClock`: `@ctrlkit/core/testing`'s, re-exported.
 *
 * A first test:
 * ```ts
 * import { ControllerExpectations } from '@ctrlkit/expectations';
 * import { bindControllerExpectations } from '@ctrlkit/expectations/informer';
 * import { FakeClock, FakeInformer } from '@ctrlkit/expectations/testing';
 *
 * const expectations = new ControllerExpectations({ clock: new FakeClock() });
 * const pods = new FakeInformer<V1Pod>();
 * bindControllerExpectations(pods, expectations);
 * expectations.expectCreations('default/web', 1);
 * pods.emitAdd({
 *   metadata: { namespace: 'default', name: 'web-1', ownerReferences: [{ kind: 'ReplicaSet', name: 'web', controller: true }] },
 * });
 * expectations.satisfiedExpectations('default/web'); // true
 * ```
 *
 * @packageDocumentation
 */

export { DEFAULT_FAKE_CLOCK_START_MS, FakeClock } from '@ctrlkit/core/testing';
export { FakeInformer } from './testing/fake-informer.js';
export { type LogEntry, RecordingLogger } from './testing/recording-logger.js';
