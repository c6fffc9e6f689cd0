//! A logger that keeps every line it is given, for tests that assert on logs.

import type { Logger } from '@ctrlkit/core';

/** One line a `RecordingLogger` received. */
export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: object;
  msg: string | undefined;
}

/** A logger that keeps every line in `entries`, for tests that assert on logs. */
export class RecordingLogger implements Logger {
  /** Every line received, oldest first. */
  readonly entries: LogEntry[] = [];

  /** Records a debug line. */
  debug(obj: object, msg?: string): void {
    this.entries.push({ level: 'debug', obj, msg });
  }

  /** Records an info line. */
  info(obj: object, msg?: string): void {
    this.entries.push({ level: 'info', obj, msg });
  }

  /** Records a warning. */
  warn(obj: object, msg?: string): void {
    this.entries.push({ level: 'warn', obj, msg });
  }

  /** Records an error line. */
  error(obj: object, msg?: string): void {
    this.entries.push({ level: 'error', obj, msg });
  }
}
