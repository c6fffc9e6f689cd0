//! The error a retry policy gives when an item has failed too often.

import { CtrlkitError } from '@ctrlkit/core';

/** Given by {@link defaultRetryFunc} once an item has been tried `maxRetries` times; the item is dropped. */
export class MaxRetriesError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'MaxRetriesReached' as const;
  /** How many times the item was tried. */
  readonly timesTried: number;

  constructor(timesTried: number, maxRetries: number, options?: { cause?: unknown }) {
    super(`maximum retries (${maxRetries}) reached`, options);
    this.timesTried = timesTried;
  }
}
