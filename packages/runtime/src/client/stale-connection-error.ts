//! A request that failed because the connection it went out on was gone: sent once more on a fresh one.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * A request that failed before any answer on a connection the server had closed or reset
 * meanwhile (a kept-alive HTTP/1.1 connection, the HTTP/2 session); `cause` is the
 * connection's error. `unprocessed`: the server cannot have acted on it (an HTTP/2 stream
 * refused, or beyond a GOAWAY), so any method may be sent again, as Go's HTTP/2 transport does.
 */
export class StaleConnectionError extends CtrlkitError {
  readonly reason = 'StaleConnection' as const;
  declare readonly cause: Error;
  readonly unprocessed: boolean;

  constructor(cause: Error, unprocessed: boolean) {
    super(cause.message, { cause });
    this.unprocessed = unprocessed;
  }
}
