// The structured logger every ctrlkit package writes to; pino satisfies it.

/** A structured logger: a context object first, then the message. pino satisfies it. */
export interface Logger {
  debug(context: object, message?: string): void;
  info(context: object, message?: string): void;
  warn(context: object, message?: string): void;
  error(context: object, message?: string): void;
}

const discard = (): void => {};

/** A logger that drops everything: the default where none is given. */
export const noopLogger: Logger = { debug: discard, info: discard, warn: discard, error: discard };
