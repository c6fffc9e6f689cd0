//! Answers one HTTP request to the webhook server: checks, body limit, parse, handler with its time limit.

import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Logger } from '@ctrlkit/core';
import { InvalidReviewError } from './webhook-error.js';
import { messageOf, type WebhookHandler } from './webhook-handler.js';
import type { WebhookMetrics } from './webhook-metrics.js';

/** The HTTP status and body of an answer. */
interface Answer {
  readonly code: number;
  readonly body: unknown;
}

/** Why a body was not read. */
class BodyError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Answers `request` with `handler` (undefined: 404), counting it in `metrics` under the
 * handler's path. Never throws and never rejects: every failure is an answer.
 */
export function answer(
  request: Http2ServerRequest,
  response: Http2ServerResponse,
  handler: WebhookHandler | undefined,
  metrics: WebhookMetrics,
  limits: { maxRequestBytes: number },
  logger: Logger,
): void {
  if (handler === undefined) {
    write(response, { code: 404, body: { message: `no webhook at ${request.url}` } });
    request.resume();
    return;
  }
  const started = performance.now();
  metrics.requestStarted(handler.path);
  let finished = false;
  const finish = (code: number): void => {
    if (finished) return;
    finished = true;
    metrics.requestFinished(handler.path, code, (performance.now() - started) / 1000);
  };
  response.on('close', () => finish(response.statusCode));
  response.on('error', (error) => logger.debug({ err: error }, 'webhook response failed'));
  compute(request, handler, limits)
    .catch((error: unknown) => {
      logger.error({ err: error, webhook: handler.path }, 'webhook request failed');
      return { code: 500, body: handler.errorReview(undefined, 500, messageOf(error)) };
    })
    .then((result) => {
      write(response, result);
      finish(result.code);
    });
}

async function compute(
  request: Http2ServerRequest,
  handler: WebhookHandler,
  limits: { maxRequestBytes: number },
): Promise<Answer> {
  const failure = (code: number, message: string, review?: unknown): Answer => ({
    code,
    body: handler.errorReview(review, code, message),
  });
  if (request.method !== 'POST') {
    request.resume();
    return failure(405, `method ${request.method} not allowed: a webhook takes POST`);
  }
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    request.resume();
    return failure(
      415,
      `content type ${request.headers['content-type'] ?? '(none)'} not supported: expected application/json`,
    );
  }
  let text: string;
  try {
    text = await readBody(request, limits.maxRequestBytes);
  } catch (error) {
    if (error instanceof BodyError) return failure(error.code, error.message);
    throw error;
  }
  let review: unknown;
  try {
    review = JSON.parse(text);
  } catch (error) {
    return failure(400, `request body is not JSON: ${messageOf(error)}`);
  }
  return run(handler, review, failure);
}

async function run(
  handler: WebhookHandler,
  review: unknown,
  failure: (code: number, message: string, review?: unknown) => Answer,
): Promise<Answer> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Answer>((resolve) => {
    timer = setTimeout(() => {
      abort.abort(new Error('webhook handler timed out'));
      const message = `webhook handler did not answer within ${handler.handlerTimeoutMs} ms`;
      resolve({ code: 200, body: handler.errorReview(review, 504, message) });
    }, handler.handlerTimeoutMs);
  });
  const handled = (async (): Promise<Answer> => {
    try {
      return { code: 200, body: await handler.handle(review, abort.signal) };
    } catch (error) {
      if (InvalidReviewError.isInstance(error)) return failure(400, error.message, review);
      return { code: 200, body: handler.errorReview(review, 500, messageOf(error)) };
    }
  })();
  try {
    return await Promise.race([handled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function readBody(request: Http2ServerRequest, maxBytes: number): Promise<string> {
  const declared = Number(request.headers['content-length']);
  if (declared > maxBytes) {
    request.resume();
    return Promise.reject(
      new BodyError(
        413,
        `request body of ${declared} bytes is over the limit of ${maxBytes} bytes`,
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new BodyError(413, `request body is over the limit of ${maxBytes} bytes`));
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    request.on('end', () => {
      if (size === 0) reject(new BodyError(400, 'request body is empty'));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    request.on('error', (error) => reject(error));
  });
}

function write(response: Http2ServerResponse, { code, body }: Answer): void {
  // An HTTP/2 stream the client reset, or a connection (HTTP/1.1 or HTTP/2) that closed.
  if (response.headersSent || response.stream?.destroyed || response.socket?.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(code, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
