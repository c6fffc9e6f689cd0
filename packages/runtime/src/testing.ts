//! Test helpers of @ctrlkit/runtime.

export { FakeClock } from '@ctrlkit/workqueue/testing';
