//! Classifies errors by what went wrong, so the controllers know what to retry (virtual-kubelet's `errdefs`).

const marker = Symbol.for('@ctrlkit/node-controller/ErrdefsError');

/** The classes of failure a provider or the API can report. */
export type ErrdefsReason = 'NotFound' | 'InvalidInput';

/**
 * An error of a known class. Providers throw `notFound(...)` when a pod does not exist
 * (the controllers treat it as done) and `invalidInput(...)` for bad arguments.
 */
export class ErrdefsError extends Error {
  /** What a program can branch on. */
  readonly reason: ErrdefsReason;
  readonly [marker] = true;

  constructor(reason: ErrdefsReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ErrdefsError';
    this.reason = reason;
  }

  /** True for any ErrdefsError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is ErrdefsError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/** A NotFound error with `message` (errdefs' `NotFound`). */
export function notFound(message: string): ErrdefsError {
  return new ErrdefsError('NotFound', message);
}

/** Wraps `cause` as a NotFound error (errdefs' `AsNotFound`); an existing NotFound is returned as is. */
export function asNotFound(cause: unknown): ErrdefsError {
  if (isNotFound(cause) && ErrdefsError.isInstance(cause)) return cause;
  return new ErrdefsError('NotFound', errorMessage(cause), { cause });
}

/** An InvalidInput error with `message` (errdefs' `InvalidInput`). */
export function invalidInput(message: string): ErrdefsError {
  return new ErrdefsError('InvalidInput', message);
}

/** Wraps `cause` as an InvalidInput error (errdefs' `AsInvalidInput`). */
export function asInvalidInput(cause: unknown): ErrdefsError {
  if (isInvalidInput(cause) && ErrdefsError.isInstance(cause)) return cause;
  return new ErrdefsError('InvalidInput', errorMessage(cause), { cause });
}

/**
 * True when `error`, or an error in its `cause` chain, is NotFound: an {@link ErrdefsError}
 * with that reason, or an API error with HTTP status 404.
 */
export function isNotFound(error: unknown): boolean {
  return inChain(error, (e) => reasonOf(e) === 'NotFound' || apiStatusCode(e) === 404);
}

/** True when `error`, or an error in its `cause` chain, is InvalidInput (or the workqueue's InvalidArgumentError). */
export function isInvalidInput(error: unknown): boolean {
  return inChain(
    error,
    (e) =>
      reasonOf(e) === 'InvalidInput' ||
      (e as { reason?: unknown } | null)?.reason === 'InvalidArgument',
  );
}

/** True when `error` is an API 409 Conflict. */
export function isConflict(error: unknown): boolean {
  return inChain(error, (e) => apiStatusCode(e) === 409);
}

/**
 * The HTTP status of an API error: `code` of client-node's `ApiException`, `statusCode`
 * of the runtime's `ApiStatusError`; `undefined` for anything else.
 */
export function apiStatusCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; statusCode?: unknown };
  if (typeof e.statusCode === 'number') return e.statusCode;
  if (typeof e.code === 'number') return e.code;
  return undefined;
}

/** The message of any thrown value; for an API error, the Status message of its body. */
export function errorMessage(error: unknown): string {
  if (apiStatusCode(error) !== undefined) {
    let body = (error as { body?: unknown }).body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // not JSON: fall back to the error's message
      }
    }
    const message = (body as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return error instanceof Error ? error.message : String(error);
}

function reasonOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && marker in error
    ? (error as ErrdefsError).reason
    : undefined;
}

function inChain(error: unknown, test: (e: unknown) => boolean): boolean {
  let current = error;
  for (let depth = 0; depth < 16 && current !== undefined && current !== null; depth++) {
    if (test(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
