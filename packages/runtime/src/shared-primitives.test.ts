// One clock, one logger, one error for bad options across the ctrlkit packages: what the
// runtime re-exports is the workqueue's, and expectations and envtest take the same ones.

import { Writable } from 'node:stream';
import { FakeClock as WorkqueueFakeClock } from '@ctrlkit/core/testing';
import { startControlPlane } from '@ctrlkit/envtest';
import { ControllerExpectations } from '@ctrlkit/expectations';
import * as workqueue from '@ctrlkit/workqueue';
import { newBucketRateLimiter, newTypedDelayingQueue } from '@ctrlkit/workqueue';
import type { CoreV1Event } from '@kubernetes/client-node';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { EventRecorder } from './events/event-recorder.js';
import type { EventSink } from './events/event-sink.js';
import { InvalidArgumentError, noopLogger, realClock } from './index.js';
import { FakeClock } from './testing.js';

/** A pino logger writing JSON lines into `lines`. */
function pinoInto(lines: Record<string, unknown>[]) {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return pino({ level: 'debug' }, stream);
}

/** An event sink that keeps what it is given. */
function recordingSink(written: CoreV1Event[] = []): EventSink {
  return {
    create: async (event) => {
      written.push(event);
      return event;
    },
    patch: async (event) => event,
  };
}

function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('shared primitives', () => {
  it('the runtime re-exports the workqueue clock, logger and error, not copies', () => {
    expect(FakeClock).toBe(WorkqueueFakeClock);
    expect(realClock).toBe(workqueue.realClock);
    expect(noopLogger).toBe(workqueue.noopLogger);
    expect(InvalidArgumentError).toBe(workqueue.InvalidArgumentError);
  });

  it('one FakeClock and one pino logger drive workqueue, expectations and runtime objects', async () => {
    const clock = new FakeClock();
    const lines: Record<string, unknown>[] = [];
    const logger = pinoInto(lines);

    const queue = newTypedDelayingQueue<string>({ clock });
    const expectations = new ControllerExpectations({ clock, logger, timeoutMs: 60_000 });
    const written: CoreV1Event[] = [];
    const sink = recordingSink(written);
    const recorder = new EventRecorder({ component: 'c', host: 'h', sink, clock, logger });

    queue.addAfter('key', 1_000);
    expectations.expectCreations('ns/owner', 1);
    clock.step(1_000);
    expect(queue.len()).toBe(1);
    expect(expectations.satisfiedExpectations('ns/owner')).toBe(false);

    clock.step(60_001);
    expect(expectations.satisfiedExpectations('ns/owner')).toBe(true);

    const wroteAt = new Date(Math.floor(clock.now() / 1000) * 1000);
    recorder.event({ kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } }, 'Normal', 'R', 'm');
    await recorder.shutDown();
    expect(written[0]?.firstTimestamp).toEqual(wroteAt);
    expect(wroteAt.getUTCFullYear()).toBeGreaterThanOrEqual(2023);

    expect(lines.some((line) => line.msg === 'controller expectations expired')).toBe(true);
    queue.shutDown();
  });

  it('one InvalidArgumentError.isInstance catches a bad option of every package', async () => {
    const errors = [
      thrown(() => newBucketRateLimiter({ qps: -1, burst: 1 })),
      thrown(() => new ControllerExpectations({ timeoutMs: -1 })),
      thrown(() => new EventRecorder({ component: '', sink: recordingSink() })),
      await startControlPlane({ startTimeoutMs: -5, logger: pinoInto([]) }).catch(
        (error: unknown) => error,
      ),
    ];
    expect(errors.map((e) => InvalidArgumentError.isInstance(e))).toEqual([true, true, true, true]);
    expect(errors.map((e) => (e as InvalidArgumentError).field)).toEqual([
      'options.qps',
      'options.timeoutMs',
      'component',
      'startTimeoutMs',
    ]);
    expect(errors.every((e) => (e as InvalidArgumentError).reason === 'InvalidArgument')).toBe(
      true,
    );
  });
});
