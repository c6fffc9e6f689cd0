//! A small HTTP client on top of a KubeConfig's TLS and credentials: LIST, WATCH and single requests, over kept-alive connections.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { CtrlkitError, InvalidArgumentError } from '@ctrlkit/core';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  ListBodyParser,
  type ListBodyParserOptions,
  type ParsedList,
} from '../internal/list-body-parser.js';
import type { RestClientMetrics } from '../metrics/rest-client-metrics.js';
import { type ApiStatus, ApiStatusError } from './errors/api-status-error.js';
import { ResourceExpiredError } from './errors/resource-expired-error.js';
import { WatchStreamError } from './errors/watch-stream-error.js';

/** What {@link RestClientOptions.onRequest} is told about each request. */
export interface RestRequestInfo {
  /** `list` and `watch` for the informers; the HTTP method, lower case, for {@link RestClient.request} and `requestJson`. */
  readonly verb: 'list' | 'watch' | 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path with its query string. */
  readonly url: string;
}

/** Options of a {@link RestClient}. */
export interface RestClientOptions {
  /**
   * Called as each LIST page or WATCH request is sent (for metrics and tests). Default:
   * nothing. An exception it throws is ignored.
   */
  onRequest?: (info: RestRequestInfo) => void;
  /**
   * A LIST (or any request but a WATCH, which has its own) on whose connection nothing
   * arrives for this long fails, in ms: a half-open connection is given up instead of
   * hanging (the reflector or the controller then retries). Default
   * {@link DEFAULT_LIST_IDLE_TIMEOUT_MS}.
   */
  listIdleTimeoutMs?: number;
  /**
   * Ask for uncompressed responses. Default `false`: like client-go, requests carry
   * `Accept-Encoding: gzip`, which the apiserver honours for large responses (LISTs over
   * 128 KiB; watches are not compressed). Compression spares the network and costs CPU on
   * both sides: on a loopback or a fast LAN `true` may sync sooner (see the README).
   */
  disableCompression?: boolean;
  /**
   * Where each request's outcome is reported (`rest_client_*`, as client-go counts its
   * informers' LISTs and WATCHes): the HTTP method, host, status code (`<error>` when no
   * answer came) and the seconds to the answer's head. Default: not reported.
   */
  metrics?: RestClientMetrics;
}

/** How long a LIST (or another request but a WATCH) may go without receiving anything before it fails: 60 s. */
export const DEFAULT_LIST_IDLE_TIMEOUT_MS = 60_000;

/**
 * How long a kept-alive connection may sit unused in the pool before it is closed: 30 s,
 * under the idle timeouts of the apiserver and of the proxies and load balancers in front
 * of it, so that a request rarely meets a connection the other side just closed.
 */
export const IDLE_CONNECTION_TIMEOUT_MS = 30_000;

/** Methods sent again, once, when a reused connection turns out closed by the server before it answered. */
const RETRIED_ON_STALE_CONNECTION: ReadonlySet<string> = new Set(['GET', 'PUT', 'DELETE']);

/** One decoded watch event, as the apiserver sends it. */
export interface RawWatchEvent {
  readonly type: string;
  readonly object: unknown;
}

/** Query parameters; undefined values are left out. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** An HTTP method of {@link RestClient.request} and {@link RestClient.requestJson}. */
export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Sends LIST and WATCH requests to the cluster a `KubeConfig` points at, with its TLS
 * settings and credentials (`applyToHTTPSOptions`, asked again for every request so that
 * refreshed tokens are used). Responses are read as whole buffers (LIST) or as
 * newline-delimited JSON (WATCH), without the client-side timeout of client-node's `Watch`.
 * {@link RestClient.requestJson} sends any other request as plain JSON, for objects that
 * client-node's model classes would rename on the way (e.g. DRA's `int` attributes), and
 * {@link RestClient.request} any request as given.
 *
 * Connections are kept alive and reused, as client-go's transport does: one TLS handshake
 * per connection, not per request (a handshake costs both sides milliseconds of CPU). The
 * pool is rebuilt when the kubeconfig's TLS material changes (a rotated client
 * certificate); a cluster behind a `proxy-url` uses client-node's proxy agent instead.
 */
export class RestClient {
  readonly kubeConfig: KubeConfig;
  readonly #onRequest: ((info: RestRequestInfo) => void) | undefined;
  readonly #metrics: RestClientMetrics | undefined;
  readonly #listIdleTimeoutMs: number;
  readonly #acceptEncoding: string;
  #pool: { readonly tls: TlsMaterial; readonly agent: http.Agent } | undefined;

  constructor(kubeConfig: KubeConfig, options: RestClientOptions = {}) {
    if (
      kubeConfig === null ||
      typeof kubeConfig !== 'object' ||
      typeof kubeConfig.getCurrentCluster !== 'function'
    ) {
      throw new InvalidArgumentError(
        'kubeConfig',
        'must be a KubeConfig from @kubernetes/client-node',
      );
    }
    if (options.onRequest !== undefined && typeof options.onRequest !== 'function') {
      throw new InvalidArgumentError('onRequest', 'must be a function');
    }
    this.kubeConfig = kubeConfig;
    this.#onRequest = options.onRequest;
    if (options.metrics !== undefined && typeof options.metrics?.observe !== 'function') {
      throw new InvalidArgumentError('metrics', 'must have an observe(request) method');
    }
    this.#metrics = options.metrics;
    const idle = options.listIdleTimeoutMs;
    if (idle !== undefined && (!Number.isFinite(idle) || idle <= 0)) {
      throw new InvalidArgumentError(
        'listIdleTimeoutMs',
        `must be a finite number of ms > 0, got ${String(idle)}`,
      );
    }
    this.#listIdleTimeoutMs = idle ?? DEFAULT_LIST_IDLE_TIMEOUT_MS;
    const disable = options.disableCompression;
    if (disable !== undefined && typeof disable !== 'boolean') {
      throw new InvalidArgumentError('disableCompression', 'must be a boolean');
    }
    this.#acceptEncoding = disable === true ? 'identity' : 'gzip';
  }

  /**
   * Sends `body` (JSON, unless `contentType` says another patch type) to `path` with
   * `method` and parses the JSON answer (undefined when empty). Throws `ApiStatusError`
   * (its `statusCode` and the apiserver's `status`), or `ResourceExpiredError` on 410.
   */
  async requestJson(
    method: RestMethod,
    path: string,
    body?: unknown,
    options: { contentType?: string; signal?: AbortSignal } = {},
  ): Promise<unknown> {
    const { statusCode, body: answer } = await this.request(method, path, {
      headers: {
        Accept: 'application/json',
        ...(body !== undefined && { 'Content-Type': options.contentType ?? 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
    if (statusCode < 200 || statusCode > 299)
      throw statusError(statusCode, answer, `${method} ${path}`);
    return answer.length === 0 ? undefined : JSON.parse(answer.toString('utf8'));
  }

  /**
   * Sends `method` to `path` (with its query string) with `headers` (over the kubeconfig's
   * credentials) and `body`, and reads the whole answer, gunzipped, whatever its status:
   * for adapters such as `ApiClientFactory`'s clients. Rejects only when no answer
   * came (connection error, `signal` aborted).
   */
  async request(
    method: RestMethod,
    path: string,
    options: {
      headers?: Record<string, string>;
      body?: string | Buffer;
      signal?: AbortSignal;
    } = {},
  ): Promise<RestResponse> {
    const payload =
      options.body === undefined || Buffer.isBuffer(options.body)
        ? options.body
        : Buffer.from(options.body);
    const { response, body, idleError } = await this.#send(
      method.toLowerCase() as RestRequestInfo['verb'],
      path,
      undefined,
      options.signal,
      this.#listIdleTimeoutMs,
      { method, payload, headers: options.headers ?? {} },
    );
    try {
      return {
        statusCode: response.statusCode ?? 0,
        headers: response.headers,
        body: await readBody(body),
      };
    } catch (error) {
      throw idleError() ?? error;
    }
  }

  /** GETs `path` and parses the JSON body. Throws `ApiStatusError`, or `ResourceExpiredError` on 410. */
  async getJson(
    path: string,
    query: Query,
    accept: string,
    signal?: AbortSignal,
  ): Promise<unknown> {
    return JSON.parse((await this.getBody(path, query, accept, signal)).toString('utf8'));
  }

  /**
   * GETs `path` and returns the body unparsed. Throws `ApiStatusError`, or
   * `ResourceExpiredError` on 410. `onHead` (optional) is called once, on a 200 response,
   * with the first bytes of the body (at least 8 KiB, or up to `"items":`, or all of it):
   * enough to read a list's metadata before the rest has arrived.
   */
  async getBody(
    path: string,
    query: Query,
    accept: string,
    signal?: AbortSignal,
    onHead?: (head: Buffer) => void,
  ): Promise<Buffer> {
    const url = withQuery(path, query);
    const {
      response,
      body: stream,
      idleError,
    } = await this.#send('list', url, accept, signal, this.#listIdleTimeoutMs);
    const ok = response.statusCode === 200;
    let body: Buffer;
    try {
      body = await readBody(stream, ok ? onHead : undefined);
    } catch (error) {
      throw idleError() ?? error;
    }
    if (!ok) throw statusError(response.statusCode ?? 0, body, `LIST ${url}`);
    return body;
  }

  /**
   * GETs a list at `path` and parses it while it arrives: each item as soon as its last
   * byte is in ({@link ListBodyParser}), so parsing overlaps the transfer. Errors and
   * `onHead` as {@link RestClient.getBody}; `parsing` goes to the parser (e.g. leaving
   * `managedFields` out).
   */
  async getList(
    path: string,
    query: Query,
    accept: string,
    signal?: AbortSignal,
    onHead?: (head: Buffer) => void,
    parsing?: ListBodyParserOptions,
  ): Promise<ParsedList> {
    const url = withQuery(path, query);
    const {
      response,
      body: stream,
      idleError,
    } = await this.#send('list', url, accept, signal, this.#listIdleTimeoutMs);
    try {
      if (response.statusCode !== 200) {
        throw statusError(response.statusCode ?? 0, await readBody(stream), `LIST ${url}`);
      }
      const parser = new ListBodyParser(parsing);
      await readBody(stream, onHead, (chunk) => parser.push(chunk));
      return parser.end();
    } catch (error) {
      throw idleError() ?? error;
    }
  }

  /**
   * Opens a watch on `path` and calls `onEvent` for each event, in order. Resolves when the
   * server ends the stream; rejects on a broken connection, an HTTP error status
   * (`ApiStatusError`, `ResourceExpiredError` on 410), a malformed line (`WatchStreamError`)
   * or an exception from `onEvent` (the connection is closed then). `idleTimeoutMs` closes
   * a connection on which nothing arrived for that long (a half-open socket).
   */
  async watch(
    path: string,
    query: Query,
    accept: string,
    onEvent: (event: RawWatchEvent) => void,
    signal?: AbortSignal,
    idleTimeoutMs?: number,
  ): Promise<void> {
    const url = withQuery(path, { ...query, watch: 'true' });
    const {
      response,
      body: stream,
      idleError,
    } = await this.#send('watch', url, accept, signal, idleTimeoutMs);
    if (response.statusCode !== 200) {
      const body = await readBody(stream);
      throw statusError(response.statusCode ?? 0, body, `WATCH ${url}`);
    }
    await new Promise<void>((resolve, reject) => {
      let pending = '';
      let settled = false;
      const fail = (error: unknown): void => {
        if (settled) return;
        settled = true;
        response.destroy();
        // The idle timeout destroys the connection: say so, not "aborted" or "closed".
        reject(idleError() ?? error);
      };
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        if (settled) return;
        let start = 0;
        let newline = chunk.indexOf('\n');
        if (newline === -1) {
          pending += chunk;
          return;
        }
        try {
          while (newline !== -1) {
            const line =
              pending === '' ? chunk.slice(start, newline) : pending + chunk.slice(start, newline);
            pending = '';
            if (line.length > 0) onEvent(parseEvent(line));
            if (settled) return;
            start = newline + 1;
            newline = chunk.indexOf('\n', start);
          }
          pending = chunk.slice(start);
        } catch (error) {
          fail(error);
        }
      });
      stream.on('end', () => {
        if (settled) return;
        try {
          if (pending.trim().length > 0) onEvent(parseEvent(pending));
        } catch (error) {
          fail(error);
          return;
        }
        settled = true;
        resolve();
      });
      stream.on('error', fail);
      response.on('aborted', () => fail(new WatchStreamError(`WATCH ${url}: connection aborted`)));
      stream.on('close', () => {
        if (!settled)
          fail(
            new WatchStreamError(`WATCH ${url}: connection closed before the end of the stream`),
          );
      });
    });
  }

  /**
   * Sends once; once more when the request went out on a kept-alive connection that the
   * server had closed meanwhile (`ECONNRESET`/`EPIPE` before any answer) and the method is
   * GET, PUT or DELETE, as Go's transport retries such requests.
   */
  async #send(
    verb: RestRequestInfo['verb'],
    url: string,
    accept: string | undefined,
    signal: AbortSignal | undefined,
    idleTimeoutMs: number | undefined,
    send?: { method: RestMethod; payload: Buffer | undefined; headers: Record<string, string> },
  ): Promise<SentRequest> {
    try {
      return await this.#sendOnce(verb, url, accept, signal, idleTimeoutMs, send);
    } catch (error) {
      if (!(error instanceof StaleConnectionError)) throw error;
      if (!RETRIED_ON_STALE_CONNECTION.has(send?.method ?? 'GET')) throw error.cause;
    }
    try {
      return await this.#sendOnce(verb, url, accept, signal, idleTimeoutMs, send);
    } catch (error) {
      throw error instanceof StaleConnectionError ? error.cause : error;
    }
  }

  async #sendOnce(
    verb: RestRequestInfo['verb'],
    url: string,
    accept: string | undefined,
    signal: AbortSignal | undefined,
    idleTimeoutMs: number | undefined,
    send?: { method: RestMethod; payload: Buffer | undefined; headers: Record<string, string> },
  ): Promise<SentRequest> {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new InvalidArgumentError('kubeConfig', 'has no current cluster');
    const options: https.RequestOptions = {};
    await this.kubeConfig.applyToHTTPSOptions(options);
    signal?.throwIfAborted();
    try {
      this.#onRequest?.({ verb, url });
    } catch {
      // An observer's failure is not the request's.
    }
    const target = new URL(cluster.server.replace(/\/+$/, '') + url);
    const plain = target.protocol === 'http:';
    if (!cluster.proxyUrl) options.agent = this.#agent(options, plain);
    const request = (plain ? http.request : https.request)(target, {
      ...options,
      method: send?.method ?? 'GET',
      headers: {
        ...options.headers,
        ...(accept !== undefined && { Accept: accept }),
        'Accept-Encoding': this.#acceptEncoding,
        ...send?.headers,
        ...(send?.payload && { 'Content-Length': send.payload.length }),
      },
      signal,
    });
    let idle: WatchStreamError | undefined;
    if (idleTimeoutMs !== undefined) {
      request.setTimeout(idleTimeoutMs, () => {
        idle = new WatchStreamError(
          `${verb.toUpperCase()} ${url}: nothing received for ${idleTimeoutMs} ms (a half-open connection?); closed it`,
        );
        request.destroy(idle);
      });
    }
    const started = performance.now();
    let observed = false;
    const observe = (code: string) => {
      if (observed) return; // an error after the answer's head is not another request
      observed = true;
      this.#metrics?.observe({
        method: send?.method ?? 'GET',
        host: target.host,
        code,
        seconds: (performance.now() - started) / 1000,
      });
    };
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      request.once('response', (answer: IncomingMessage) => {
        observe(String(answer.statusCode ?? 0));
        resolve(answer);
      });
      request.once('error', () => observe('<error>'));
      // `on`, not `once`: a later error (abort, idle timeout) must not go unhandled.
      request.on('error', (error) =>
        reject(
          idle ??
            (request.reusedSocket && isConnectionReset(error)
              ? new StaleConnectionError(error)
              : error),
        ),
      );
      request.end(send?.payload);
    });
    return { response, body: decoded(response), idleError: () => idle };
  }

  /** The keep-alive agent for `options`' TLS material; a new one when it changed. */
  #agent(options: https.RequestOptions, plain: boolean): http.Agent {
    const tls = tlsMaterial(options);
    const pool = this.#pool;
    if (pool !== undefined && sameTls(pool.tls, tls)) return pool.agent;
    // The previous pool's idle connections close once the server drops them.
    const pooling = { keepAlive: true, timeout: IDLE_CONNECTION_TIMEOUT_MS };
    const agent = plain ? new http.Agent(pooling) : new https.Agent({ ...tls, ...pooling });
    this.#pool = { tls, agent };
    return agent;
  }
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

/** A whole answer of {@link RestClient.request}. */
export interface RestResponse {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /** Gunzipped when the server compressed it. */
  readonly body: Buffer;
}

/** What a TLS connection is made with: a different value needs another connection. */
type TlsMaterial = Pick<
  https.AgentOptions,
  'ca' | 'cert' | 'key' | 'pfx' | 'passphrase' | 'rejectUnauthorized' | 'servername'
>;

function tlsMaterial(options: https.RequestOptions): TlsMaterial {
  const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = options;
  return { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername };
}

function sameTls(a: TlsMaterial, b: TlsMaterial): boolean {
  return (Object.keys(a) as Array<keyof TlsMaterial>).every((field) =>
    sameValue(a[field], b[field]),
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  return a === b;
}

/** A response, its body decoded, and the idle-timeout error once the idle timeout closed it. */
interface SentRequest {
  readonly response: IncomingMessage;
  readonly body: Readable;
  readonly idleError: () => WatchStreamError | undefined;
}

/**
 * The output chunk of the gunzip stream: 64 KiB, four times zlib's default, so that a large
 * LIST (megabytes) is handed on in a quarter of the chunks (each a hop from zlib's thread).
 */
const GUNZIP_CHUNK_BYTES = 64 * 1024;

/** The body of `response`, gunzipped as it arrives when the server compressed it. */
function decoded(response: IncomingMessage): Readable {
  if (response.headers['content-encoding'] !== 'gzip') return response;
  const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
  response.on('error', (error) => gunzip.destroy(error));
  response.on('aborted', () =>
    gunzip.destroy(new Error('connection aborted while reading the response')),
  );
  return response.pipe(gunzip);
}

function withQuery(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

const HEAD_BYTES = 8192;
const ITEMS_FIELD = Buffer.from('"items":');

/**
 * Reads a body: whole (resolving to it), or handed chunk by chunk to `onChunk` (resolving
 * to an empty buffer; an exception from `onChunk` rejects and closes the stream).
 */
function readBody(
  response: Readable,
  onHead?: (head: Buffer) => void,
  onChunk?: (chunk: Buffer) => void,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let head = onHead;
    const callHead = (buffer: Buffer): void => {
      const callback = head;
      head = undefined;
      try {
        callback?.(buffer);
      } catch {
        // A failing observer does not fail the request.
      }
    };
    response.on('data', (chunk: Buffer) => {
      if (head !== undefined || onChunk === undefined) {
        chunks.push(chunk);
        length += chunk.length;
      }
      if (head !== undefined && (length >= HEAD_BYTES || chunk.includes(ITEMS_FIELD))) {
        callHead(chunks.length === 1 ? chunk : Buffer.concat(chunks, length));
      }
      if (onChunk !== undefined) {
        if (head === undefined) chunks.length = 0;
        try {
          onChunk(chunk);
        } catch (error) {
          response.destroy();
          reject(error);
        }
      }
    });
    response.on('end', () => {
      const body =
        onChunk !== undefined
          ? Buffer.alloc(0)
          : chunks.length === 1
            ? (chunks[0] as Buffer)
            : Buffer.concat(chunks, length);
      if (head !== undefined) callHead(onChunk !== undefined ? Buffer.concat(chunks) : body);
      resolve(body);
    });
    response.on('error', reject);
    response.on('aborted', () =>
      reject(new Error('connection aborted while reading the response')),
    );
  });
}

function parseEvent(line: string): RawWatchEvent {
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch (error) {
    throw new WatchStreamError(`a watch line is not JSON: ${line.slice(0, 120)}`, { cause: error });
  }
  if (
    typeof event !== 'object' ||
    event === null ||
    typeof (event as RawWatchEvent).type !== 'string'
  ) {
    throw new WatchStreamError(`a watch line is not an event: ${line.slice(0, 120)}`);
  }
  return event as RawWatchEvent;
}

/** The error for a non-200 answer: `ResourceExpiredError` for 410, else `ApiStatusError`. */
function statusError(statusCode: number, body: Buffer, request: string): Error {
  let status: ApiStatus | undefined;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as ApiStatus & { kind?: string };
    if (parsed && typeof parsed === 'object') status = parsed;
  } catch {
    status = body.length > 0 ? { message: body.toString('utf8').slice(0, 500) } : undefined;
  }
  if (statusCode === 410)
    return new ResourceExpiredError(
      `${request}: 410 Gone${status?.message ? `: ${status.message}` : ''}`,
    );
  return new ApiStatusError(statusCode, status, request);
}

/** True when a watch ERROR event's Status says the resource version expired (410 / Expired / Gone). */
export function isExpiredStatus(status: ApiStatus | undefined): boolean {
  return status?.code === 410 || status?.reason === 'Expired' || status?.reason === 'Gone';
}
