import * as core from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import * as workqueue from './index.js';

describe('the root entry', () => {
  it("re-exports @ctrlkit/core's clock, logger, sleep and error as the same objects (deprecated names)", () => {
    expect(workqueue.realClock).toBe(core.realClock);
    expect(workqueue.noopLogger).toBe(core.noopLogger);
    expect(workqueue.sleep).toBe(core.sleep);
    expect(workqueue.InvalidArgumentError).toBe(core.InvalidArgumentError);
    const clock: workqueue.Clock = core.realClock;
    const logger: workqueue.Logger = core.noopLogger;
    const timer: workqueue.Timer = clock.setTimer(() => {}, 1);
    timer.cancel();
    expect(logger).toBe(core.noopLogger);
  });
});
