//! The options of a Client, their defaults, and their checks at construction.

import { type Clock, InvalidArgumentError, realClock } from '@ctrlkit/core';
import { CONTENT_TYPE_JSON, CONTENT_TYPE_PROTOBUF, type ContentType } from './content-type.js';
import type { RestClientMetrics } from './rest-client-metrics.js';
import { DEFAULT_BURST, DEFAULT_MAX_RETRIES, DEFAULT_QPS } from './throttle.js';
import type { ClientRequestInfo, KubeConfigLike } from './transport.js';
import { defaultUserAgent, isHeaderValue, type ProgramInfo } from './user-agent.js';

/** How long a request but a WATCH may go without receiving anything before it fails: 60 s. */
export const DEFAULT_LIST_IDLE_TIMEOUT_MS = 60_000;

/** Options of a {@link Client} (client-go's `rest.Config` fields that are not the kubeconfig's). */
export interface ClientOptions {
  /**
   * Requests per second of every non-watch request (LISTs of the informers included), after
   * the burst; `Infinity` for no limit. Default {@link DEFAULT_QPS} (20).
   */
  qps?: number;
  /** Requests let through at once from a full bucket; an integer ≥ 1. Default {@link DEFAULT_BURST} (30). */
  burst?: number;
  /**
   * The program named in the default User-Agent
   * (`<name>/<version> (<os>/<arch>) ctrlkit/<version>`). Default: the script's base name
   * and `unknown`. Ignored when `userAgent` is given.
   */
  program?: ProgramInfo;
  /**
   * The whole `User-Agent` header, when the default will not do (client-go's
   * `rest.Config.UserAgent`). The apiserver takes the part before the first `/` as the
   * field manager of writes that name none. Default: {@link defaultUserAgent}(`program`).
   */
  userAgent?: string;
  /**
   * Where each request's outcome is reported (`rest_client_*`): method, host, status code
   * (`<error>` when no answer came), seconds to the answer's head, and the rate limiter's
   * wait. Default: not reported.
   */
  metrics?: RestClientMetrics;
  /** Called as each request is sent, retries included (for tests and tracing). Default: nothing. An exception it throws is ignored. */
  onRequest?: (info: ClientRequestInfo) => void;
  /**
   * A request but a WATCH (which has its own) on whose connection nothing arrives for this
   * long fails, in ms: a half-open connection is given up instead of hanging. Default
   * {@link DEFAULT_LIST_IDLE_TIMEOUT_MS}.
   */
  listIdleTimeoutMs?: number;
  /**
   * Ask for uncompressed responses. Default `false`: like client-go, requests carry
   * `Accept-Encoding: gzip`, which the apiserver honours for large responses (LISTs over
   * 128 KiB, and the streaming list: a watch with `sendInitialEvents`; a plain watch is not
   * compressed). On a loopback or a fast LAN `true` may be faster.
   */
  disableCompression?: boolean;
  /**
   * Watch over HTTP/1.1 instead of HTTP/2. Default `false`: like client-go, watches share
   * one HTTP/2 connection (to an `https:` server without a proxy), pinged when silent, so a
   * half-open connection is closed and its watches resumed within 45 s (HTTP/1.1 watches
   * notice one only at their own timeout). A server without HTTP/2 is watched over HTTP/1.1.
   */
  disableHttp2?: boolean;
  /**
   * How many times a request answered with a delay (429 Too Many Requests, or a 5xx with
   * `Retry-After`) is sent again after that delay; `0` never. Default
   * {@link DEFAULT_MAX_RETRIES} (10), as client-go.
   */
  maxRetries?: number;
  /** The clock of the rate limiter and the Retry-After waits. Default: the real clock. */
  clock?: Clock;
  /**
   * The wire format asked for built-in types' objects (client-go's `rest.Config.ContentType`):
   * `'application/vnd.kubernetes.protobuf'` (the default, as client-go's typed clients:
   * cheaper for the apiserver to write and for the client to read) or `'application/json'`.
   * Custom resources, discovery and metadata-only requests are JSON either way; objects are
   * handed out as JSON would give them, whichever format carried them. Request bodies are
   * JSON.
   */
  contentType?: ContentType;
}

/** Options after their defaults. */
export interface ResolvedClientOptions {
  readonly qps: number;
  readonly burst: number;
  readonly userAgent: string;
  readonly metrics: RestClientMetrics | undefined;
  readonly onRequest: ((info: ClientRequestInfo) => void) | undefined;
  readonly listIdleTimeoutMs: number;
  readonly disableCompression: boolean;
  readonly disableHttp2: boolean;
  readonly maxRetries: number;
  readonly clock: Clock;
  readonly contentType: ContentType;
}

const known = new Set([
  'qps',
  'burst',
  'program',
  'userAgent',
  'metrics',
  'onRequest',
  'listIdleTimeoutMs',
  'disableCompression',
  'disableHttp2',
  'maxRetries',
  'clock',
  'contentType',
]);

/** Checks `kubeConfig` and `options`; throws `InvalidArgumentError` naming the first bad field. */
export function resolveClientOptions(
  kubeConfig: KubeConfigLike,
  options: ClientOptions,
): ResolvedClientOptions {
  checkKubeConfig(kubeConfig);
  if (options === null || typeof options !== 'object')
    throw new InvalidArgumentError('options', 'must be an object');
  for (const key of Object.keys(options)) {
    if (!known.has(key)) throw new InvalidArgumentError(key, 'unknown option');
  }
  const { qps, burst } = resolveRateLimit(options);
  const userAgent = resolveUserAgent(options);
  if (options.metrics !== undefined && typeof options.metrics?.observe !== 'function')
    throw new InvalidArgumentError('metrics', 'must have an observe(request) method');
  if (options.onRequest !== undefined && typeof options.onRequest !== 'function')
    throw new InvalidArgumentError('onRequest', 'must be a function');
  return {
    qps,
    burst,
    userAgent,
    metrics: options.metrics,
    onRequest: options.onRequest,
    ...resolveTransportOptions(options),
  };
}

function checkKubeConfig(kubeConfig: KubeConfigLike): void {
  if (
    kubeConfig === null ||
    typeof kubeConfig !== 'object' ||
    typeof kubeConfig.getCurrentCluster !== 'function' ||
    typeof kubeConfig.applyToHTTPSOptions !== 'function'
  ) {
    throw new InvalidArgumentError(
      'kubeConfig',
      'must be a KubeConfig (from @kubernetes/client-node or loadKubeConfig)',
    );
  }
}

/** `qps` and `burst`, checked, with their defaults. */
function resolveRateLimit(options: ClientOptions): Pick<ResolvedClientOptions, 'qps' | 'burst'> {
  const qps = options.qps ?? DEFAULT_QPS;
  if (typeof qps !== 'number' || Number.isNaN(qps) || qps <= 0) {
    throw new InvalidArgumentError(
      'qps',
      `expected requests per second > 0 (Infinity for no limit), got ${String(qps)}`,
    );
  }
  const burst = options.burst ?? DEFAULT_BURST;
  if (!Number.isInteger(burst) || burst < 1) {
    throw new InvalidArgumentError('burst', `expected an integer >= 1, got ${String(burst)}`);
  }
  return { qps, burst };
}

/** The `User-Agent`: `userAgent`, or the default one built from `program`, both checked. */
function resolveUserAgent(options: ClientOptions): string {
  const program = options.program ?? {};
  if (typeof program !== 'object' || program === null)
    throw new InvalidArgumentError('program', 'must be an object { name?, version? }');
  for (const field of ['name', 'version'] as const) {
    const value = program[field];
    if (value !== undefined && (!isHeaderValue(value) || /[\s/()]/.test(value))) {
      throw new InvalidArgumentError(
        `program.${field}`,
        `expected one word without '/', '(' or ')', got ${JSON.stringify(value)}`,
      );
    }
  }
  const userAgent = options.userAgent ?? defaultUserAgent(program);
  if (!isHeaderValue(userAgent))
    throw new InvalidArgumentError('userAgent', 'expected a non-empty single-line string');
  return userAgent;
}

/** How requests are sent and read: timeouts, compression, HTTP/2, retries, clock, content type. */
function resolveTransportOptions(
  options: ClientOptions,
): Omit<ResolvedClientOptions, 'qps' | 'burst' | 'userAgent' | 'metrics' | 'onRequest'> {
  const idle = options.listIdleTimeoutMs ?? DEFAULT_LIST_IDLE_TIMEOUT_MS;
  if (typeof idle !== 'number' || !Number.isFinite(idle) || idle <= 0) {
    throw new InvalidArgumentError(
      'listIdleTimeoutMs',
      `must be a finite number of ms > 0, got ${String(idle)}`,
    );
  }
  const disableCompression = options.disableCompression ?? false;
  if (typeof disableCompression !== 'boolean')
    throw new InvalidArgumentError('disableCompression', 'must be a boolean');
  const disableHttp2 = options.disableHttp2 ?? false;
  if (typeof disableHttp2 !== 'boolean')
    throw new InvalidArgumentError('disableHttp2', 'must be a boolean');
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    throw new InvalidArgumentError('maxRetries', `expected an integer >= 0, got ${maxRetries}`);
  const clock = options.clock ?? realClock;
  if (typeof clock?.now !== 'function') throw new InvalidArgumentError('clock', 'must be a Clock');
  const contentType = options.contentType ?? CONTENT_TYPE_PROTOBUF;
  if (contentType !== CONTENT_TYPE_PROTOBUF && contentType !== CONTENT_TYPE_JSON) {
    throw new InvalidArgumentError(
      'contentType',
      `expected '${CONTENT_TYPE_PROTOBUF}' or '${CONTENT_TYPE_JSON}', got ${JSON.stringify(contentType)}`,
    );
  }
  return {
    listIdleTimeoutMs: idle,
    disableCompression,
    disableHttp2,
    maxRetries,
    clock,
    contentType,
  };
}
