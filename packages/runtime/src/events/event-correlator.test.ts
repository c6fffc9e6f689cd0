import { FakeClock } from '@ctrlkit/core/testing';
import type { CoreV1Event } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  COMBINED_PREFIX,
  EventCorrelator,
  getAggregateKey,
  getEventKey,
  getSpamKey,
} from './event-correlator.js';

let sequence = 0;
function makeEvent(
  overrides: Partial<CoreV1Event> = {},
  object: Record<string, string> = {},
): CoreV1Event {
  const at = new Date(1_700_000_000_000);
  return {
    metadata: { name: `pod-a.${(sequence++).toString(16)}`, namespace: 'ns' },
    involvedObject: {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'ns',
      name: 'pod-a',
      uid: 'u1',
      ...object,
    },
    source: { component: 'ctrl', host: 'h1' },
    type: 'Normal',
    reason: 'Started',
    message: 'started',
    count: 1,
    firstTimestamp: at,
    lastTimestamp: at,
    ...overrides,
  };
}

describe('event keys', () => {
  it('the event key covers source, object (with fieldPath), type, reason and message', () => {
    const base = getEventKey(makeEvent());
    expect(getEventKey(makeEvent())).toBe(base);
    expect(getEventKey(makeEvent({ message: 'other' }))).not.toBe(base);
    expect(getEventKey(makeEvent({ reason: 'Other' }))).not.toBe(base);
    expect(getEventKey(makeEvent({ type: 'Warning' }))).not.toBe(base);
    expect(getEventKey(makeEvent({ source: { component: 'ctrl', host: 'h2' } }))).not.toBe(base);
    expect(getEventKey(makeEvent({}, { uid: 'u2' }))).not.toBe(base);
    expect(getEventKey(makeEvent({}, { fieldPath: 'spec.containers{a}' }))).not.toBe(base);
  });

  it('the aggregate key ignores the message; the spam key also ignores the reason and type', () => {
    expect(getAggregateKey(makeEvent({ message: 'x' }))).toBe(
      getAggregateKey(makeEvent({ message: 'y' })),
    );
    expect(getAggregateKey(makeEvent({ reason: 'A' }))).not.toBe(
      getAggregateKey(makeEvent({ reason: 'B' })),
    );
    expect(getSpamKey(makeEvent({ reason: 'A' }))).toBe(getSpamKey(makeEvent({ reason: 'B' })));
    expect(getSpamKey(makeEvent({ type: 'Warning' }))).toBe(getSpamKey(makeEvent()));
    expect(getSpamKey(makeEvent({}, { name: 'pod-b' }))).not.toBe(getSpamKey(makeEvent()));
  });
});

describe('EventCorrelator', () => {
  it('creates the first occurrence and patches repeats with count, firstTimestamp and name kept', () => {
    const clock = new FakeClock();
    const correlator = new EventCorrelator({ clock });
    const first = correlator.correlate(makeEvent());
    expect(first.action).toBe('create');
    correlator.updateState(
      { ...first.event, metadata: { ...first.event.metadata, resourceVersion: '7' } },
      first.key,
    );
    clock.step(5_000);
    const later = new Date(1_700_000_005_000);
    const second = correlator.correlate(makeEvent({ lastTimestamp: later, firstTimestamp: later }));
    expect(second.action).toBe('patch');
    if (second.action !== 'patch') return;
    expect(second.patch).toEqual({ count: 2, lastTimestamp: later, message: 'started' });
    expect(second.event.metadata.name).toBe(first.event.metadata.name);
    expect(second.event.firstTimestamp).toEqual(new Date(1_700_000_000_000));
    const third = correlator.correlate(makeEvent());
    expect(third.action === 'patch' && third.patch.count).toBe(3);
  });

  it('does not aggregate events that differ in any part of the key', () => {
    const correlator = new EventCorrelator({ clock: new FakeClock() });
    expect(correlator.correlate(makeEvent()).action).toBe('create');
    expect(correlator.correlate(makeEvent({ message: 'other' })).action).toBe('create');
    expect(correlator.correlate(makeEvent({ type: 'Warning' })).action).toBe('create');
    expect(correlator.correlate(makeEvent({}, { name: 'pod-b' })).action).toBe('create');
  });

  it('starts a new Event when the repeat comes after the aggregation window', () => {
    const clock = new FakeClock();
    const correlator = new EventCorrelator({ clock, aggregationWindowMs: 60_000 });
    expect(correlator.correlate(makeEvent()).action).toBe('create');
    clock.step(60_000);
    expect(correlator.correlate(makeEvent()).action).toBe('patch'); // exactly at the window: still in
    clock.step(60_001);
    const late = correlator.correlate(makeEvent());
    expect(late.action).toBe('create');
    expect(late.event.count).toBe(1);
  });

  it('combines similar events (differing only in message) after maxSimilarEvents in the window', () => {
    const clock = new FakeClock();
    const correlator = new EventCorrelator({ clock, maxSimilarEvents: 10 });
    for (let i = 0; i < 9; i++) {
      expect(correlator.correlate(makeEvent({ message: `m${i}` })).action).toBe('create');
    }
    const tenth = correlator.correlate(makeEvent({ message: 'm9' }));
    expect(tenth.action).toBe('create');
    expect(tenth.event.message).toBe(`${COMBINED_PREFIX}m9`);
    const eleventh = correlator.correlate(makeEvent({ message: 'm10' }));
    expect(eleventh.action).toBe('patch');
    expect(eleventh.event.metadata.name).toBe(tenth.event.metadata.name);
    expect(eleventh.action === 'patch' && eleventh.patch.message).toBe(`${COMBINED_PREFIX}m10`);
    // After the similar-events window, counting starts over.
    clock.step(600_001);
    expect(correlator.correlate(makeEvent({ message: 'm11' })).event.message).toBe('m11');
  });

  it('drops events beyond the spam burst per object, refilling at spamQps', () => {
    const clock = new FakeClock();
    const correlator = new EventCorrelator({
      clock,
      spamBurst: 3,
      spamQps: 1 / 300,
      maxSimilarEvents: Infinity,
    });
    const actions = Array.from(
      { length: 5 },
      (_, i) => correlator.correlate(makeEvent({ message: `m${i}` })).action,
    );
    expect(actions).toEqual(['create', 'create', 'create', 'skip', 'skip']);
    // Another object has its own bucket.
    expect(correlator.correlate(makeEvent({}, { name: 'pod-b' })).action).toBe('create');
    clock.step(300_000);
    expect(correlator.correlate(makeEvent({ message: 'm5' })).action).toBe('create');
    expect(correlator.correlate(makeEvent({ message: 'm6' })).action).toBe('skip');
  });

  it('counts a throttled repeat, so the next write carries the full count', () => {
    const clock = new FakeClock();
    const correlator = new EventCorrelator({ clock, spamBurst: 2, spamQps: 1 / 300 });
    expect(correlator.correlate(makeEvent()).action).toBe('create');
    expect(correlator.correlate(makeEvent()).action).toBe('patch');
    expect(correlator.correlate(makeEvent()).action).toBe('skip');
    clock.step(300_000);
    const next = correlator.correlate(makeEvent());
    expect(next.action === 'patch' && next.patch.count).toBe(4);
  });

  it('names events <object name>.<hex ns timestamp>, unique within a millisecond', () => {
    const correlator = new EventCorrelator({ clock: new FakeClock(1_700_000_000_000) });
    const a = correlator.newEventName('web');
    const b = correlator.newEventName('web');
    expect(a).toMatch(/^web\.[0-9a-f]+$/);
    expect(b).not.toBe(a);
    expect(BigInt(`0x${a.slice(4)}`) / 1_000_000n).toBe(1_700_000_000_000n);
  });
});
