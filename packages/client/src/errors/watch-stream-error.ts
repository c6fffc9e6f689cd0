//! The error for a watch stream that broke: a line that is not JSON, an unknown event type.

import { InformerError } from './informer-error.js';

/**
 * The watch stream carried something the reflector cannot use (a malformed line, an
 * event type it does not know). The reflector logs it, drops the connection and watches
 * again from the last resource version it saw.
 */
export class WatchStreamError extends InformerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('WatchStream', message, options);
  }
}
