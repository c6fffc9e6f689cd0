// What an API error says: its HTTP status, its Status reason, when to retry (apimachinery's `errors.Is…`).

/**
 * The parts of a `meta/v1` Status these helpers read from an error: its `body` (client-node's
 * `ApiException`, as an object or JSON text) or its `status` (the runtime's `ApiStatusError`).
 */
interface StatusLike {
  readonly code?: unknown;
  readonly reason?: unknown;
  readonly message?: unknown;
  readonly details?: { readonly retryAfterSeconds?: unknown };
}

/** How deep the `cause` chain is followed, as Go's `errors.As` unwraps wrapped errors. */
const MAX_CAUSE_DEPTH = 16;

/**
 * The HTTP status code an API error carries, from the first error in its `cause` chain that
 * has one: `statusCode` (the runtime's client), `code` (client-node's `ApiException`) or the
 * `code` of a Status body; `undefined` for anything else (a network error, a bug).
 */
export function statusCode(error: unknown): number | undefined {
  for (const e of causeChain(error)) {
    const own = e as { statusCode?: unknown; code?: unknown };
    if (typeof own.statusCode === 'number') return own.statusCode;
    if (typeof own.code === 'number') return own.code;
    const code = statusOf(e)?.code;
    if (typeof code === 'number') return code;
  }
  return undefined;
}

/**
 * The Status `reason` an API error carries (`NotFound`, `Conflict`, `AlreadyExists`,
 * `Expired`, …), from the first error in its `cause` chain whose Status has one.
 */
export function statusReason(error: unknown): string | undefined {
  for (const e of causeChain(error)) {
    const reason = statusOf(e)?.reason;
    if (typeof reason === 'string' && reason !== '') return reason;
  }
  return undefined;
}

/**
 * True for a 404 Not Found answer or a Status reason `NotFound` (apimachinery's
 * `errors.IsNotFound`), and for a ctrlkit error whose `reason` is `NotFound` (a provider's
 * "no such pod"), anywhere in the `cause` chain.
 */
export function isNotFound(error: unknown): boolean {
  return (
    statusCode(error) === 404 ||
    statusReason(error) === 'NotFound' ||
    causeChain(error).some((e) => isCtrlkitErrorWithReason(e, 'NotFound'))
  );
}

/**
 * True for a 409 answer (apimachinery's `errors.IsConflict`): an update that lost a race
 * on `resourceVersion` (reason `Conflict`), and also a create of an existing object (409
 * `AlreadyExists`), which a read-modify-write loop treats the same way.
 */
export function isConflict(error: unknown): boolean {
  return statusCode(error) === 409 || statusReason(error) === 'Conflict';
}

/** True for a create of an object that exists: Status reason `AlreadyExists` (apimachinery's `errors.IsAlreadyExists`). */
export function isAlreadyExists(error: unknown): boolean {
  return statusReason(error) === 'AlreadyExists';
}

/** True for 429 Too Many Requests, or Status reason `TooManyRequests` (apimachinery's `errors.IsTooManyRequests`). */
export function isTooManyRequests(error: unknown): boolean {
  return statusCode(error) === 429 || statusReason(error) === 'TooManyRequests';
}

/**
 * How long the server asked the client to wait before retrying, in ms (apimachinery's
 * `errors.SuggestsClientDelay`): the Status `details.retryAfterSeconds`, a `Retry-After`
 * header in seconds or as an HTTP date (read against `nowMs`), or an error's own
 * `retryAfterMs`. `undefined` when the error says nothing.
 */
export function retryAfterMs(error: unknown, nowMs: number = Date.now()): number | undefined {
  for (const e of causeChain(error)) {
    const own = (e as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof own === 'number' && own >= 0) return own;
    const seconds = statusOf(e)?.details?.retryAfterSeconds;
    if (typeof seconds === 'number' && seconds > 0) return seconds * 1000;
    const header = retryAfterHeader(e);
    if (header !== undefined) {
      const parsed = parseRetryAfter(header, nowMs);
      if (parsed !== undefined) return parsed;
    }
  }
  return undefined;
}

/**
 * The message of any thrown value: for an API error, the message of the Status the server
 * sent (`pods "x" not found`), otherwise the error's message, or the value as text.
 */
export function errorMessage(error: unknown): string {
  if (statusCode(error) !== undefined) {
    for (const e of causeChain(error)) {
      const message = statusOf(e)?.message;
      if (typeof message === 'string' && message !== '') return message;
    }
  }
  return error instanceof Error ? error.message : String(error);
}

function causeChain(error: unknown): object[] {
  const chain: object[] = [];
  let current = error;
  while (typeof current === 'object' && current !== null && chain.length < MAX_CAUSE_DEPTH) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function statusOf(error: object): StatusLike | undefined {
  const e = error as { status?: unknown; body?: unknown };
  if (typeof e.status === 'object' && e.status !== null) return e.status as StatusLike;
  const body = typeof e.body === 'string' ? parseJson(e.body) : e.body;
  return typeof body === 'object' && body !== null ? (body as StatusLike) : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isCtrlkitErrorWithReason(error: object, reason: string): boolean {
  return (
    Symbol.for('@ctrlkit/core/CtrlkitError') in error &&
    (error as { reason?: unknown }).reason === reason
  );
}

function retryAfterHeader(error: object): string | undefined {
  const headers = (error as { headers?: unknown }).headers;
  if (typeof headers !== 'object' || headers === null) return undefined;
  const get = (headers as { get?: unknown }).get;
  if (typeof get === 'function')
    return (get.call(headers, 'retry-after') as string | null) ?? undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'retry-after') continue;
    if (typeof value === 'string') return value;
    if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  }
  return undefined;
}

function parseRetryAfter(value: string, nowMs: number): number | undefined {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
