//! An in-memory event recorder for tests (client-go's `record.FakeRecorder`).

import { format } from 'node:util';
import type { EventRecorderLike, EventSubject, EventType } from '../events/event-recorder.js';

/**
 * Keeps events as strings `"<type> <reason> <message>"`, as client-go's `FakeRecorder` does,
 * for assertions in tests. Writes nothing.
 */
export class FakeRecorder implements EventRecorderLike {
  /** The recorded events, oldest first. */
  readonly events: string[] = [];

  event(_subject: EventSubject, type: EventType, reason: string, message: string): void {
    this.events.push(`${type} ${reason} ${message}`);
  }

  eventf(
    subject: EventSubject,
    type: EventType,
    reason: string,
    messageFormat: string,
    ...args: unknown[]
  ): void {
    this.event(subject, type, reason, format(messageFormat, ...args));
  }

  /** Nothing to flush. */
  async shutDown(): Promise<void> {}
}
