//! Test helpers of @ctrlkit/runtime.

export { FakeClock } from '@ctrlkit/workqueue/testing';
export { FakeRecorder } from './events/fake-recorder.js';
