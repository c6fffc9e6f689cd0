//! Test helpers of @ctrlkit/runtime.

export { FakeClock } from '@ctrlkit/core/testing';
export { FakeRecorder } from './events/fake-recorder.js';
