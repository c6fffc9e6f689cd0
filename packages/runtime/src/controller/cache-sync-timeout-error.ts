//! The error of a controller whose caches did not sync in time.

const marker = Symbol.for('@ctrlkit/runtime/CacheSyncTimeoutError');

/** `Controller.run` gave up waiting for its informers to sync. */
export class CacheSyncTimeoutError extends Error {
  /** What a program can branch on. */
  readonly reason = 'CacheSyncTimeout' as const;
  /** The controller's name. */
  readonly controller: string;
  readonly [marker] = true;

  constructor(controller: string, timeoutMs: number) {
    super(`controller ${controller}: caches did not sync within ${timeoutMs} ms`);
    this.name = 'CacheSyncTimeoutError';
    this.controller = controller;
  }

  /** True for any CacheSyncTimeoutError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is CacheSyncTimeoutError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
