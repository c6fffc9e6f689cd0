//! The error a retry policy gives when an item has failed too often.

const marker = Symbol.for('@ctrlkit/workqueue/MaxRetriesError');

/** Given by {@link defaultRetryFunc} once an item has been tried `maxRetries` times; the item is dropped. */
export class MaxRetriesError extends Error {
  /** What a program can branch on. */
  readonly reason = 'MaxRetriesReached' as const;
  /** How many times the item was tried. */
  readonly timesTried: number;
  readonly [marker] = true;

  constructor(timesTried: number, maxRetries: number, options?: { cause?: unknown }) {
    super(`maximum retries (${maxRetries}) reached`, options);
    this.name = 'MaxRetriesError';
    this.timesTried = timesTried;
  }

  /** True for any MaxRetriesError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is MaxRetriesError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
