import { describe, expect, it } from 'vitest';
import type { EventRecorder, EventRecorderLike } from '../events/event-recorder.js';
import { FakeRecorder } from './fake-recorder.js';

describe('FakeRecorder', () => {
  it('keeps "<type> <reason> <message>" strings, like client-go', () => {
    const recorder = new FakeRecorder();
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' } };
    recorder.event(pod, 'Normal', 'Started', 'started');
    recorder.eventf(pod, 'Warning', 'Failed', 'failed %d times', 3);
    expect(recorder.events).toEqual(['Normal Started started', 'Warning Failed failed 3 times']);
  });

  it('is interchangeable with EventRecorder', () => {
    const real: EventRecorderLike = {} as EventRecorder;
    const fake: EventRecorderLike = new FakeRecorder();
    expect([real, fake]).toHaveLength(2);
  });
});
