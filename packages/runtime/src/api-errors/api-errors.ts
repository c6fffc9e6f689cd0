//! Which HTTP status an API error carries (apimachinery's `errors.IsNotFound`, `IsConflict`).

/** The answer's status: client-node's `ApiException` (`code`), the runtime's `ApiStatusError` (`statusCode`), or a Status body's `code`. */
function statusOf(error: unknown): { code: unknown; reason: unknown } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; statusCode?: unknown; body?: unknown };
  const body = (typeof e.body === 'string' ? parse(e.body) : e.body) as
    | { code?: unknown; reason?: unknown }
    | undefined;
  return { code: e.statusCode ?? e.code ?? body?.code, reason: body?.reason };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * True for an HTTP 409 Conflict answer (apimachinery's `errors.IsConflict`): client-node's
 * `ApiException` (`code`), or any error with `statusCode` 409 or a Status body whose
 * `reason` is `Conflict`. A create of an existing object (409 `AlreadyExists`) counts too.
 */
export function isConflict(error: unknown): boolean {
  const status = statusOf(error);
  return status?.code === 409 || status?.reason === 'Conflict';
}

/** True for an HTTP 404 Not Found answer (apimachinery's `errors.IsNotFound`), from the same error shapes as {@link isConflict}. */
export function isNotFound(error: unknown): boolean {
  const status = statusOf(error);
  return status?.code === 404 || status?.reason === 'NotFound';
}
