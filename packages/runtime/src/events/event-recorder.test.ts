import { InvalidArgumentError, type Logger } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import type { CoreV1Event } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { EventRecorder, type EventRecorderOptions } from './event-recorder.js';
import type { EventSink } from './event-sink.js';

/** A sink that stores events by name, and can be told to fail. */
class FakeSink implements EventSink {
  readonly events = new Map<string, CoreV1Event>();
  readonly calls: string[] = [];
  failures: unknown[] = [];
  #version = 0;

  async create(event: CoreV1Event): Promise<CoreV1Event> {
    this.calls.push(`create ${event.metadata.name}`);
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
    const stored = {
      ...event,
      metadata: { ...event.metadata, resourceVersion: String(++this.#version) },
    };
    this.events.set(event.metadata.name!, stored);
    return stored;
  }

  async patch(event: CoreV1Event, patch: Partial<CoreV1Event>): Promise<CoreV1Event> {
    this.calls.push(`patch ${event.metadata.name}`);
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
    const existing = this.events.get(event.metadata.name!);
    if (existing === undefined) throw Object.assign(new Error('NotFound'), { code: 404 });
    const stored = {
      ...existing,
      ...patch,
      metadata: { ...existing.metadata, resourceVersion: String(++this.#version) },
    };
    this.events.set(event.metadata.name!, stored as CoreV1Event);
    return stored as CoreV1Event;
  }
}

function recordingLogger() {
  const lines: { level: string; message: string | undefined }[] = [];
  const at =
    (level: string) =>
    (_: object, message?: string): void =>
      void lines.push({ level, message });
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
  return { logger, lines };
}

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
};
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup(overrides: Partial<EventRecorderOptions> = {}) {
  const clock = new FakeClock();
  const sink = new FakeSink();
  const { logger, lines } = recordingLogger();
  const recorder = new EventRecorder({
    component: 'ctrl',
    host: 'h1',
    sink,
    clock,
    logger,
    ...overrides,
  });
  return { clock, sink, recorder, lines };
}

describe('EventRecorder', () => {
  it('writes a core/v1 Event with source, reference, type, timestamps and count 1', async () => {
    const { sink, recorder } = setup({
      clock: new FakeClock(Date.parse('2026-11-23T01:02:03.456Z')),
    });
    recorder.event(pod, 'Normal', 'Started', 'started web');
    await recorder.shutDown();
    const [event] = [...sink.events.values()];
    expect(event).toMatchObject({
      metadata: { namespace: 'ns' },
      involvedObject: { apiVersion: 'v1', kind: 'Pod', name: 'web', namespace: 'ns', uid: 'u1' },
      source: { component: 'ctrl', host: 'h1' },
      type: 'Normal',
      reason: 'Started',
      message: 'started web',
      count: 1,
      firstTimestamp: new Date('2026-11-23T01:02:03Z'),
      lastTimestamp: new Date('2026-11-23T01:02:03Z'),
    });
    expect(event!.metadata.name).toMatch(/^web\.[0-9a-f]+$/);
  });

  it('aggregates 5 repeats into one Event with count 5', async () => {
    const { sink, recorder } = setup();
    for (let i = 0; i < 5; i++) recorder.event(pod, 'Warning', 'FailedCreate', 'quota exceeded');
    await recorder.shutDown();
    expect(sink.events.size).toBe(1);
    expect([...sink.events.values()][0]!.count).toBe(5);
    expect(sink.calls.filter((c) => c.startsWith('create'))).toHaveLength(1);
    expect(sink.calls.filter((c) => c.startsWith('patch'))).toHaveLength(4);
  });

  it('formats messages with eventf', async () => {
    const { sink, recorder } = setup();
    recorder.eventf(pod, 'Normal', 'Scaled', 'scaled %s to %d', 'web', 3);
    await recorder.shutDown();
    expect([...sink.events.values()][0]!.message).toBe('scaled web to 3');
  });

  it('puts events about cluster-scoped objects in the default namespace', async () => {
    const { sink, recorder } = setup();
    recorder.event(
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } },
      'Normal',
      'Ready',
      'ready',
    );
    await recorder.shutDown();
    expect([...sink.events.values()][0]!.metadata.namespace).toBe('default');
  });

  it('never throws nor blocks: returns before the write happens', () => {
    const { sink, recorder } = setup();
    recorder.event(pod, 'Normal', 'Started', 'x');
    expect(sink.calls).toEqual([]);
  });

  it('retries transport and 5xx errors with backoff, then writes', async () => {
    const { sink, recorder, clock, lines } = setup({ retryBaseDelayMs: 500 });
    sink.failures = [
      new Error('ECONNREFUSED'),
      Object.assign(new Error('unavailable'), { code: 503 }),
    ];
    recorder.event(pod, 'Normal', 'Started', 'x');
    await flush();
    expect(sink.calls).toHaveLength(1);
    clock.step(499);
    await flush();
    expect(sink.calls).toHaveLength(1);
    clock.step(1);
    await flush();
    expect(sink.calls).toHaveLength(2);
    clock.step(1_000); // the delay doubled
    await flush();
    expect(sink.calls).toHaveLength(3);
    await recorder.shutDown();
    expect(sink.events.size).toBe(1);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('gives up after maxTriesPerEvent and logs an error', async () => {
    const { sink, recorder, clock, lines } = setup({ maxTriesPerEvent: 3, retryBaseDelayMs: 10 });
    sink.failures = Array.from({ length: 10 }, () => new Error('ECONNREFUSED'));
    recorder.event(pod, 'Normal', 'Started', 'x');
    const done = recorder.shutDown();
    for (let i = 0; i < 10; i++) {
      await flush();
      clock.step(100);
    }
    await done;
    expect(sink.calls).toHaveLength(3);
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      message: expect.stringContaining('after 3 tries'),
    });
  });

  it('does not retry a rejection by the server (4xx), and logs it', async () => {
    const { sink, recorder, lines } = setup();
    sink.failures = [Object.assign(new Error('Invalid'), { code: 422 })];
    recorder.event(pod, 'Normal', 'Started', 'x');
    await recorder.shutDown();
    expect(sink.calls).toHaveLength(1);
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      message: expect.stringContaining('will not retry'),
    });
  });

  it('creates the Event anew when the one to patch is gone (404)', async () => {
    const { sink, recorder } = setup();
    recorder.event(pod, 'Normal', 'Started', 'x');
    await flush();
    const name = [...sink.events.keys()][0]!;
    sink.events.clear();
    recorder.event(pod, 'Normal', 'Started', 'x');
    await recorder.shutDown();
    expect(sink.calls).toEqual([`create ${name}`, `patch ${name}`, `create ${name}`]);
    expect(sink.events.get(name)!.count).toBe(2);
  });

  it('drops, with an error log, an event about an object without kind', async () => {
    const { sink, recorder, lines } = setup();
    recorder.event({ metadata: { name: 'x', namespace: 'ns' } }, 'Normal', 'Started', 'x');
    await recorder.shutDown();
    expect(sink.calls).toEqual([]);
    expect(lines[0]).toMatchObject({ level: 'error' });
  });

  it('shutDown flushes the queue and later events are dropped with a warning', async () => {
    const { sink, recorder, lines } = setup();
    for (let i = 0; i < 3; i++) recorder.event(pod, 'Normal', 'Started', `m${i}`);
    await recorder.shutDown();
    expect(sink.events.size).toBe(3);
    recorder.event(pod, 'Normal', 'Started', 'late');
    expect(lines.at(-1)).toMatchObject({ level: 'warn' });
  });

  it('rejects a missing component, naming the field', () => {
    const make = () => new EventRecorder({ component: '', sink: new FakeSink() });
    expect(make).toThrow(/component/);
    try {
      make();
    } catch (error) {
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).field).toBe('component');
    }
  });
});

describe('EventRecorder ordering', () => {
  it('writes events recorded while the loop is finishing', async () => {
    const { sink, recorder } = setup();
    recorder.event(pod, 'Normal', 'A', 'a');
    // Record more from promise continuations at several points of the loop's life.
    for (let i = 0; i < 5; i++) {
      await Promise.resolve();
      recorder.event(pod, 'Normal', `B${i}`, 'b');
    }
    await flush();
    recorder.event(pod, 'Normal', 'C', 'c');
    await recorder.shutDown();
    expect(sink.events.size).toBe(7);
  });
});
