//! Sends one request over the pool: credentials, User-Agent, compression, idle timeout, metrics, and the one retry on a connection the server closed.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import { CtrlkitError, InvalidArgumentError } from '@ctrlkit/core';
import type { KubeConfig } from '@kubernetes/client-node';
import { ConnectionPool } from './connection-pool.js';
import { WatchStreamError } from './errors/watch-stream-error.js';
import { Http2Sessions } from './http2-sessions.js';
import { decoded, decodedStream } from './response-body.js';
import type { RestClientMetrics } from './rest-client-metrics.js';
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
  /** The `Accept` header: the formats asked for (protobuf first for built-in types by default). */
  readonly accept: string | undefined;
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
  /** The current cluster's server URL, parsed once (not for every request). */
  #server: ServerAddress | undefined;

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

  /** Closes the pool's idle connections and the HTTP/2 sessions of the watches. */
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
    this.#tellOnRequest(request);
    const server = this.#address(cluster.server);
    const path = requestPath(server, request.url);
    if (
      request.verb === 'watch' &&
      !server.plain &&
      !cluster.proxyUrl &&
      !this.#options.disableHttp2 &&
      !this.#http1Only.has(server.origin)
    ) {
      try {
        return await this.#sendHttp2(request, server, path, options);
      } catch (error) {
        if (!refusedHttp2(error)) throw error;
        this.#http1Only.add(server.origin);
      }
    }
    if (!cluster.proxyUrl) options.agent = this.#pool.agentFor(options, server.plain);
    return this.#sendHttp1(request, server, path, options);
  }

  /** Tells `onRequest` of a request about to go out; an observer's failure is not the request's. */
  #tellOnRequest(request: TransportRequest): void {
    try {
      this.#options.onRequest?.({
        verb: request.verb,
        url: request.url,
        accept: request.headers?.Accept,
      });
    } catch {
      // An observer's failure is not the request's.
    }
  }

  /** A request over HTTP/1.1 (the pool's agent in `options`), reported to the metrics as {@link Transport.send}. */
  async #sendHttp1(
    request: TransportRequest,
    server: ServerAddress,
    path: string,
    options: https.RequestOptions,
  ): Promise<SentRequest> {
    const outgoing = (server.plain ? http.request : https.request)({
      protocol: server.protocol,
      hostname: server.hostname,
      port: server.port,
      path,
      ...server.auth,
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
    const observe = this.#observer(request, server);
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

  /**
   * Reports a request to the metrics once, with its code (`<error>` when no answer came) and
   * the seconds from now: an error after the answer's head is not another request.
   */
  #observer(request: TransportRequest, server: ServerAddress): (code: string) => void {
    const started = performance.now();
    let observed = false;
    return (code) => {
      if (observed) return;
      observed = true;
      this.#options.metrics?.observe({
        method: request.method,
        host: server.host,
        code,
        seconds: (performance.now() - started) / 1000,
      });
    };
  }

  /** `server` parsed, or the last parse when it is the same URL (a kubeconfig's server rarely changes). */
  #address(server: string): ServerAddress {
    const known = this.#server;
    if (known !== undefined && known.server === server) return known;
    const parsed = parseServer(server);
    this.#server = parsed;
    return parsed;
  }

  /** A GET (a watch) on an HTTP/2 session with room for it, reported to the metrics as {@link Transport.send}. */
  async #sendHttp2(
    request: TransportRequest,
    server: ServerAddress,
    path: string,
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
        host: server.host,
        code,
        seconds: (performance.now() - started) / 1000,
      });
    let answer: Awaited<ReturnType<Http2Sessions['request']>>;
    try {
      answer = await this.#http2.request(server.origin, options, path, headers, request.signal);
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

/** A cluster's server URL, parsed into what a request needs of it. */
interface ServerAddress {
  /** The URL as the kubeconfig gives it. */
  readonly server: string;
  /** The URL without its trailing slashes, which request paths are appended to. */
  readonly base: string;
  readonly plain: boolean;
  readonly protocol: string;
  readonly origin: string;
  /** `host:port`, as the metrics name the server. */
  readonly host: string;
  /** The host name, without an IPv6 address's brackets. */
  readonly hostname: string;
  readonly port: number | undefined;
  /** The server URL's path (a prefix before the API paths), `''` for none. */
  readonly prefix: string;
  /** The URL's user and password, as `http.request` takes them from a URL. */
  readonly auth: { readonly auth?: string };
}

function parseServer(server: string): ServerAddress {
  const base = server.replace(/\/+$/, '');
  const url = new URL(base);
  const { hostname } = url;
  return {
    server,
    base,
    plain: url.protocol === 'http:',
    protocol: url.protocol,
    origin: url.origin,
    host: url.host,
    hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
    port: url.port === '' ? undefined : Number(url.port),
    prefix: url.pathname === '/' ? '' : url.pathname,
    auth:
      url.username || url.password
        ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
        : {},
  };
}

/** Characters a request path may hold as it is: anything else is left to `URL` to encode and normalize. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~!$&()*+,;=:@/?%.]*$/;

/**
 * The path and query of `url` on `server`: concatenated when `url` is plain (the client's
 * own paths, already encoded), else as `new URL` makes them (encoded, dot segments resolved).
 */
function requestPath(server: ServerAddress, url: string): string {
  if (PLAIN_PATH.test(url) && !url.includes('/.')) return server.prefix + url;
  const target = new URL(server.base + url);
  return target.pathname + target.search;
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
