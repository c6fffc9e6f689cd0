//! Classifies errors by what went wrong, so the controllers know what to retry (virtual-kubelet's `errdefs`).

import { CtrlkitError, errorMessage, isNotFound } from '@ctrlkit/core';

/** The classes of failure a provider or the API can report. */
export type ErrdefsReason = 'NotFound' | 'InvalidInput';

/**
 * An error of a known class. Providers throw `notFound(...)` when a pod does not exist
 * (the controllers treat it as done) and `invalidInput(...)` for bad arguments.
 */
export class ErrdefsError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: ErrdefsReason;

  constructor(reason: ErrdefsReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
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

/** True when `error`, or an error in its `cause` chain, is InvalidInput (or an InvalidArgumentError). */
export function isInvalidInput(error: unknown): boolean {
  return inChain(
    error,
    (e) =>
      reasonOf(e) === 'InvalidInput' ||
      (e as { reason?: unknown } | null)?.reason === 'InvalidArgument',
  );
}

function reasonOf(error: unknown): unknown {
  return ErrdefsError.isInstance(error) ? error.reason : undefined;
}

function inChain(error: unknown, test: (e: unknown) => boolean): boolean {
  let current = error;
  for (let depth = 0; depth < 16 && current !== undefined && current !== null; depth++) {
    if (test(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
