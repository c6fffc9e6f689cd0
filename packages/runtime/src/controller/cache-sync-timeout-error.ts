//! The error of a controller whose caches did not sync in time.

import { CtrlkitError } from '@ctrlkit/core';

/** `Controller.run` gave up waiting for its informers to sync. */
export class CacheSyncTimeoutError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'CacheSyncTimeout' as const;
  /** The controller's name. */
  readonly controller: string;

  constructor(controller: string, timeoutMs: number) {
    super(`controller ${controller}: caches did not sync within ${timeoutMs} ms`);
    this.controller = controller;
  }
}
