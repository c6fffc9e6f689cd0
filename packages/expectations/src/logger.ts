/** The structured logger expectations write to: pino, or anything shaped like it. */

/**
 * A structured logger: an object of fields first, then an optional message. pino's
 * `Logger` satisfies it. Optional everywhere: without one, nothing is logged (and no log
 * fields are built). Expectations log at `debug` (one line a change, naming the key
 * and the UIDs) and at `error` (UIDTrackingControllerExpectations clobbering a set).
 */
export interface Logger {
  /** Detail for debugging: every change to a record. */
  debug(obj: object, msg?: string): void;
  /** Normal operation. */
  info(obj: object, msg?: string): void;
  /** Something unexpected that was handled. */
  warn(obj: object, msg?: string): void;
  /** Something that is likely a bug in the caller. */
  error(obj: object, msg?: string): void;
}
