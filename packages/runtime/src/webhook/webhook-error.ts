//! The errors of the webhook module: a handler's refusal, and the server's own failures.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * What went wrong: `Denied` (a validator refused the request: the apiserver answers the
 * user with `code`, `reason` and the message), `ConversionFailed` (a converter cannot convert
 * an object), `CertificateInvalid` (the serving certificate or key cannot be read or do not
 * match), `InvalidReview` (a request body that is JSON but not a review the webhook reads:
 * answered 400), `ListenFailed` (the server cannot bind its address), `AlreadyStarted`.
 */
export type WebhookErrorReason =
  | 'Denied'
  | 'InvalidReview'
  | 'ConversionFailed'
  | 'CertificateInvalid'
  | 'ListenFailed'
  | 'AlreadyStarted';

/** Thrown by the webhook server, and by handlers to refuse a request (see {@link AdmissionDeniedError}). */
export class WebhookError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: WebhookErrorReason;

  constructor(reason: WebhookErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/**
 * A validator's refusal (controller-runtime's returning an error from `ValidateCreate`):
 * the response is `allowed: false` with `status.code` (default 403), `status.reason`
 * (default `Forbidden`), this message, and `warnings`. Any other exception from a handler
 * is answered `allowed: false` with code 500.
 */
export class AdmissionDeniedError extends WebhookError {
  /** The HTTP-style code the apiserver reports to the user. Default 403. */
  readonly code: number;
  /** The `metav1.StatusReason`, e.g. `Forbidden`, `Invalid`. Default `Forbidden`. */
  readonly statusReason: string;
  /** Warnings returned with the refusal. */
  readonly warnings: readonly string[];

  constructor(
    message: string,
    details: { code?: number; statusReason?: string; warnings?: readonly string[] } = {},
  ) {
    super('Denied', message);
    this.code = details.code ?? 403;
    this.statusReason = details.statusReason ?? 'Forbidden';
    this.warnings = details.warnings ?? [];
  }
}

/** The body is JSON but not a review the webhook understands: the server answers 400. */
export class InvalidReviewError extends WebhookError {
  constructor(message: string) {
    super('InvalidReview', message);
  }
}
