//! Sends one request over the pool: credentials, User-Agent, compression, idle timeout, metrics, and the one retry on a connection the server closed.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import { CtrlkitError, InvalidArgumentError } from '@ctrlkit/core';
import type { KubeConfig } from '@kubernetes/client-node';
import { WatchStreamError } from '../informers/errors/watch-stream-error.js';
import type { RestClientMetrics } from '../metrics/rest-client-metrics.js';
import { ConnectionPool } from './connection-pool.js';
import { Http2Sessions } from './http2-sessions.js';
import { decoded, decodedStream } from './response-body.js';
import { TlsVerificationError } from './tls-verification-error.js';

/**
 * What the client needs of a kubeconfig: the cluster, and the TLS material and credentials
 * for a request (asked again for every request, so refreshed tokens and rotated
 * certificates are used). client-node's `KubeConfig` is one; so is what `loadKubeConfig`
 * returns.
 */
export type KubeConfigLike = Pick<KubeConfig, 'getCurrentCluster' | 'applyToHTTPSOptions'>;

/** An HTTP method. */
export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a request is for: `list` and `watch` for collection reads, else the method in lower case. */
export type RequestVerb = 'list' | 'watch' | 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What `onRequest` is told as each request is sent (retries included). */
export interface ClientRequestInfo {
  readonly verb: RequestVerb;
  /** The path with its query string. */
  readonly url: string;
}

/** One request, as the transport sends it. */
export interface TransportRequest {
  readonly verb: RequestVerb;
  readonly method: RestMethod;
  /** The path with its query string. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  readonly signal?: AbortSignal;
  /** Close the connection when nothing arrived for this long, in ms. Default: never. */
  readonly idleTimeoutMs?: number;
}

/**
 * The head of an answer, over HTTP/1.1 (an `IncomingMessage`) or HTTP/2; `destroy` closes
 * its connection (HTTP/1.1) or stream (HTTP/2).
 */
export interface AnswerHead {
  readonly statusCode?: number | undefined;
  readonly headers: IncomingHttpHeaders;
  destroy(error?: Error): void;
  on(event: 'aborted', listener: () => void): unknown;
}

/** An answer's head, its body (decoded as it arrives), and the idle-timeout error once that closed it. */
export interface SentRequest {
  readonly response: AnswerHead;
  readonly body: Readable;
  readonly idleError: () => WatchStreamError | undefined;
}

/** How the transport is set up (validated by the client). */
export interface TransportOptions {
  readonly userAgent: string;
  readonly disableCompression: boolean;
  readonly disableHttp2: boolean;
  readonly metrics: RestClientMetrics | undefined;
  readonly onRequest: ((info: ClientRequestInfo) => void) | undefined;
}

/** Methods sent again, once, when a reused connection turns out closed by the server before it answered. */
const RETRIED_ON_STALE_CONNECTION: ReadonlySet<string> = new Set(['GET', 'PUT', 'DELETE']);

/**
 * Sends requests to the cluster a kubeconfig points at over one {@link ConnectionPool}:
 * every request gets the kubeconfig's credentials, the `User-Agent`, `Accept-Encoding:
 * gzip` (unless disabled), an optional idle timeout, and is reported to the metrics with
 * its status code (`<error>` when no answer came) and the seconds to the answer's head. A
 * cluster behind a `proxy-url` uses the kubeconfig's own proxy agent.
 */
export class Transport {
  readonly kubeConfig: KubeConfigLike;
  readonly #options: TransportOptions;
  readonly #pool = new ConnectionPool();
  readonly #http2: Http2Sessions;
  /** Servers that refused HTTP/2: watched over HTTP/1.1. */
  readonly #http1Only = new Set<string>();

  constructor(kubeConfig: KubeConfigLike, options: TransportOptions) {
    this.kubeConfig = kubeConfig;
    this.#options = options;
    this.#http2 = new Http2Sessions();
  }

  /**
   * Sends once; once more when the request went out on a kept-alive connection that the
   * server had closed meanwhile (`ECONNRESET`/`EPIPE` before any answer) and the method is
   * GET, PUT or DELETE, as Go's transport retries such requests. A server certificate
   * that fails verification rejects with a {@link TlsVerificationError} naming the server.
   */
  async send(request: TransportRequest): Promise<SentRequest> {
    try {
      return await this.#sendRetrying(request);
    } catch (error) {
      throw TlsVerificationError.wrap(error, this.kubeConfig.getCurrentCluster()?.server ?? '');
    }
  }

  async #sendRetrying(request: TransportRequest): Promise<SentRequest> {
    try {
      return await this.#sendOnce(request);
    } catch (error) {
      if (!(error instanceof StaleConnectionError)) throw error;
      if (!RETRIED_ON_STALE_CONNECTION.has(request.method)) throw error.cause;
    }
    try {
      return await this.#sendOnce(request);
    } catch (error) {
      throw error instanceof StaleConnectionError ? error.cause : error;
    }
  }

  /** Closes the pool's idle connections and the HTTP/2 session of the watches. */
  close(): void {
    this.#pool.close();
    this.#http2.close();
  }

  async #sendOnce(request: TransportRequest): Promise<SentRequest> {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new InvalidArgumentError('kubeConfig', 'has no current cluster');
    const options: https.RequestOptions = {};
    await this.kubeConfig.applyToHTTPSOptions(options);
    request.signal?.throwIfAborted();
    try {
      this.#options.onRequest?.({ verb: request.verb, url: request.url });
    } catch {
      // An observer's failure is not the request's.
    }
    const target = new URL(cluster.server.replace(/\/+$/, '') + request.url);
    const plain = target.protocol === 'http:';
    if (
      request.verb === 'watch' &&
      !plain &&
      !cluster.proxyUrl &&
      !this.#options.disableHttp2 &&
      !this.#http1Only.has(target.origin)
    ) {
      try {
        return await this.#sendHttp2(request, target, options);
      } catch (error) {
        if (!refusedHttp2(error)) throw error;
        this.#http1Only.add(target.origin);
      }
    }
    if (!cluster.proxyUrl) options.agent = this.#pool.agentFor(options, plain);
    const outgoing = (plain ? http.request : https.request)(target, {
      ...options,
      method: request.method,
      headers: {
        ...options.headers,
        'User-Agent': this.#options.userAgent,
        'Accept-Encoding': this.#options.disableCompression ? 'identity' : 'gzip',
        ...request.headers,
        ...(request.body && { 'Content-Length': request.body.length }),
      },
      signal: request.signal,
    });
    let idle: WatchStreamError | undefined;
    const idleTimeoutMs = request.idleTimeoutMs;
    if (idleTimeoutMs !== undefined) {
      outgoing.setTimeout(idleTimeoutMs, () => {
        idle = new WatchStreamError(
          `${request.verb.toUpperCase()} ${request.url}: nothing received for ${idleTimeoutMs} ms (a half-open connection?); closed it`,
        );
        outgoing.destroy(idle);
      });
    }
    const started = performance.now();
    let observed = false;
    const observe = (code: string) => {
      if (observed) return; // an error after the answer's head is not another request
      observed = true;
      this.#options.metrics?.observe({
        method: request.method,
        host: target.host,
        code,
        seconds: (performance.now() - started) / 1000,
      });
    };
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      outgoing.once('response', (answer: IncomingMessage) => {
        observe(String(answer.statusCode ?? 0));
        resolve(answer);
      });
      outgoing.once('error', () => observe('<error>'));
      // `on`, not `once`: a later error (abort, idle timeout) must not go unhandled.
      outgoing.on('error', (error) =>
        reject(
          idle ??
            (outgoing.reusedSocket && isConnectionReset(error)
              ? new StaleConnectionError(error)
              : error),
        ),
      );
      outgoing.end(request.body);
    });
    return { response, body: decoded(response), idleError: () => idle };
  }

  /** A GET (a watch) on the HTTP/2 session, reported to the metrics as {@link Transport.send}. */
  async #sendHttp2(
    request: TransportRequest,
    target: URL,
    options: https.RequestOptions,
  ): Promise<SentRequest> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries({
      ...options.headers,
      'User-Agent': this.#options.userAgent,
      'Accept-Encoding': this.#options.disableCompression ? 'identity' : 'gzip',
      ...request.headers,
    })) {
      if (value !== undefined) headers[name.toLowerCase()] = String(value);
    }
    const started = performance.now();
    const observe = (code: string) =>
      this.#options.metrics?.observe({
        method: request.method,
        host: target.host,
        code,
        seconds: (performance.now() - started) / 1000,
      });
    let answer: Awaited<ReturnType<Http2Sessions['request']>>;
    try {
      answer = await this.#http2.request(
        target.origin,
        options,
        target.pathname + target.search,
        headers,
        request.signal,
      );
    } catch (error) {
      observe('<error>');
      throw error;
    }
    observe(String(answer.statusCode));
    const { stream } = answer;
    let idle: WatchStreamError | undefined;
    const idleTimeoutMs = request.idleTimeoutMs;
    if (idleTimeoutMs !== undefined) {
      stream.setTimeout(idleTimeoutMs, () => {
        idle = new WatchStreamError(
          `${request.verb.toUpperCase()} ${request.url}: nothing received for ${idleTimeoutMs} ms; closed it`,
        );
        stream.destroy(idle);
      });
    }
    const response: AnswerHead = {
      statusCode: answer.statusCode,
      headers: answer.headers,
      destroy: (error) => stream.destroy(error),
      on: (event, listener) => stream.on(event, listener),
    };
    return {
      response,
      body: decodedStream(stream, answer.headers),
      idleError: () => idle,
    };
  }
}

/** True when the server would not speak HTTP/2 (no `h2` in its ALPN answer). */
function refusedHttp2(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; ) {
    if (e.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL' || e.code === 'ERR_HTTP2_ERROR')
      return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** A request that failed on a reused connection the server had closed; `cause` is the socket's error. */
class StaleConnectionError extends CtrlkitError {
  readonly reason = 'StaleConnection' as const;
  declare readonly cause: Error;
  constructor(cause: Error) {
    super(cause.message, { cause });
  }
}

/** The connection was reset or closed under the request. */
function isConnectionReset(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}
