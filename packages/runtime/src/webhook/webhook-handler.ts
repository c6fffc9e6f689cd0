//! What the webhook server serves at one path: a handler of review bodies, with its time limit.

/** The kinds of webhook the server serves. */
export type WebhookType = 'validating' | 'mutating' | 'conversion';

/**
 * One webhook the {@link WebhookServer} serves at `path`: made by `validatingWebhookFor`,
 * `mutatingWebhookFor` or `conversionWebhookFor`, or written by hand for another protocol.
 */
export interface WebhookHandler {
  /** The URL path, e.g. `/validate-example-com-v1-widget`. */
  readonly path: string;
  readonly type: WebhookType;
  /** How long `handle` may take before the server answers with `errorReview(…, 504, …)`, in ms. */
  readonly handlerTimeoutMs: number;
  /**
   * Answers one parsed review. Throws `InvalidReviewError` when the body is not a review
   * of its kind (the server answers 400); any other exception is the handler's (500).
   * `signal` aborts when the server gave up waiting.
   */
  handle(review: unknown, signal: AbortSignal): Promise<unknown>;
  /** The review that reports a failure (`code`, `message`) for `review` (which may be malformed). */
  errorReview(review: unknown, code: number, message: string): unknown;
}

/** A message for any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
