//! The one way to the API server: rate limited, retried after the server's delay, counted, named, over one pool of kept-alive connections.

import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { sleep } from '@ctrlkit/core';
import type { KubernetesObject } from '@kubernetes/client-node';
import {
  type ClientOptions,
  type ResolvedClientOptions,
  resolveClientOptions,
} from './client-options.js';
import { CONTENT_TYPE_JSON, decodeBody, isProtobuf, negotiatedAccept } from './content-type.js';
import {
  ListBodyParser,
  type ListBodyParserOptions,
  type ParsedList,
} from './internal/list-body-parser.js';
import { registerWebSocketTarget } from './internal/open-web-socket.js';
import { ProtobufListParser } from './internal/protobuf-list-parser.js';
import { objectPath, type Query, withQuery } from './paths.js';
import {
  type DeleteOptions,
  deleteBody,
  type ListOptions,
  listQuery,
  type ObjectOptions,
  PATCH_CONTENT_TYPES,
  type PatchOptions,
  type RequestOptions,
  type RestResponse,
  type WriteOptions,
  writeQuery,
} from './request-options.js';
import { collectionPath, type ResourceLike, toGroupVersionResource } from './resource.js';
import { readBody } from './response-body.js';
import { statusError } from './status-error.js';
import { RequestThrottle, retryDelayMs } from './throttle.js';
import {
  type KubeConfigLike,
  type RequestVerb,
  type RestMethod,
  type SentRequest,
  Transport,
  type TransportRequest,
} from './transport.js';
import { type RawWatchEvent, readWatchStream } from './watch-stream.js';
import type { KubeObject, ObjectList, Wire } from './wire.js';

/**
 * The one way to the API server of a program (controller-runtime's `client.Client`,
 * kube-rs' `Client`): get it from `manager.client`, or from {@link createClient} in a
 * program without a Manager. Every request, the informers' LIST and WATCH included:
 * - goes over one pool of kept-alive connections for the kubeconfig's TLS material, with
 *   the kubeconfig's credentials asked again per request (refreshed tokens are used);
 * - but a WATCH, waits for a token of the client's bucket (`qps`, `burst`);
 * - carries the `User-Agent` `<program>/<version> (<os>/<arch>) ctrlkit/<version>`;
 * - is counted in `rest_client_*` with its status code and duration;
 * - is sent again after the server's delay when answered 429 (or a 5xx with
 *   `Retry-After`), at most `maxRetries` times; once more when a kept-alive connection
 *   turns out closed by the server (GET, PUT, DELETE);
 * - fails when nothing arrives for `listIdleTimeoutMs` (a WATCH: its own idle timeout);
 * - but a WATCH (to an `https:` server, no proxy) goes over one HTTP/2 connection that is
 *   pinged when silent, so a half-open connection is closed within 35 s (`disableHttp2`).
 *
 * Objects are plain JSON, typed as client-node's model types on the wire ({@link Wire}):
 * `client.get<V1Pod>('pods', name, { namespace })` gives a `Wire<V1Pod>`, whose times
 * are strings. A non-2xx answer throws `ApiStatusError` (`ResourceExpiredError` for 410):
 * read it with core's `isNotFound`, `isConflict`, `statusCode`, `errorMessage`.
 */
export class Client {
  /** The cluster and credentials. */
  readonly kubeConfig: KubeConfigLike;
  /** The `User-Agent` of every request. */
  readonly userAgent: string;
  readonly #options: ResolvedClientOptions;
  readonly #transport: Transport;
  readonly #throttle: RequestThrottle;
  #server = { url: '', host: '' };

  constructor(kubeConfig: KubeConfigLike, options: ClientOptions = {}) {
    this.#options = resolveClientOptions(kubeConfig, options);
    this.kubeConfig = kubeConfig;
    this.userAgent = this.#options.userAgent;
    this.#transport = new Transport(kubeConfig, this.#options);
    this.#throttle = new RequestThrottle(this.#options);
    const { userAgent, metrics } = this.#options;
    registerWebSocketTarget(this, { kubeConfig, userAgent, metrics });
  }

  /** The object `name` of `resource` (`'pods'`, `'apps/v1/deployments'`, a GroupVersionResource). */
  async get<T = KubernetesObject>(
    resource: ResourceLike,
    name: string,
    options: ObjectOptions = {},
  ): Promise<Wire<T>> {
    const path = objectPath(toGroupVersionResource(resource), options.namespace, name);
    return (await this.requestJson('GET', path, { ...options, verb: 'get' })) as Wire<T>;
  }

  /** One LIST of `resource` (all namespaces unless `namespace`), as one page. */
  async list<T = KubernetesObject>(
    resource: ResourceLike,
    options: ListOptions = {},
  ): Promise<ObjectList<Wire<T> & KubeObject>> {
    const path = collectionPath(toGroupVersionResource(resource), options.namespace || undefined);
    return (await this.getJson(path, listQuery(options), CONTENT_TYPE_JSON, options.signal, {
      unthrottled: options.unthrottled,
    })) as ObjectList<Wire<T> & KubeObject>;
  }

  /** Creates `object` (in `namespace`, default its `metadata.namespace`); returns it as stored. */
  async create<T extends KubeObject>(
    resource: ResourceLike,
    object: T,
    options: WriteOptions = {},
  ): Promise<Wire<T>> {
    const namespace = options.namespace ?? object.metadata?.namespace;
    const path = collectionPath(toGroupVersionResource(resource), namespace || undefined);
    return (await this.requestJson('POST', withQuery(path, writeQuery(options)), {
      ...options,
      body: object,
    })) as Wire<T>;
  }

  /**
   * Replaces the object `object` names (PUT; `subresource: 'status'` for its status);
   * with `metadata.resourceVersion` set, fails with 409 Conflict if it changed meanwhile.
   */
  async replace<T extends KubeObject>(
    resource: ResourceLike,
    object: T,
    options: WriteOptions & { subresource?: string } = {},
  ): Promise<Wire<T>> {
    const namespace = options.namespace ?? object.metadata?.namespace;
    const path = objectPath(
      toGroupVersionResource(resource),
      namespace,
      object.metadata?.name ?? '',
      options.subresource,
    );
    return (await this.requestJson('PUT', withQuery(path, writeQuery(options)), {
      ...options,
      body: object,
    })) as Wire<T>;
  }

  /**
   * Patches the object `name` with `patch` (a merge patch by default; `type` says
   * otherwise, `apply` needs `fieldManager`); returns it as stored.
   */
  async patch<T = KubernetesObject>(
    resource: ResourceLike,
    name: string,
    patch: unknown,
    options: PatchOptions = {},
  ): Promise<Wire<T>> {
    const type = options.type ?? 'merge';
    const path = objectPath(
      toGroupVersionResource(resource),
      options.namespace,
      name,
      options.subresource,
    );
    const query = { ...writeQuery(options), force: options.force === true ? 'true' : undefined };
    return (await this.requestJson('PATCH', withQuery(path, query), {
      ...options,
      body: patch,
      contentType: PATCH_CONTENT_TYPES[type],
    })) as Wire<T>;
  }

  /** Deletes the object `name`; resolves to what the server answers (the object, or a Status). */
  async delete(
    resource: ResourceLike,
    name: string,
    options: DeleteOptions = {},
  ): Promise<unknown> {
    const path = objectPath(toGroupVersionResource(resource), options.namespace, name);
    return this.requestJson('DELETE', path, { ...options, body: deleteBody(options) });
  }

  /** Deletes every object of `resource` the selectors match (in `namespace`, or all). */
  async deleteCollection(resource: ResourceLike, options: ListOptions = {}): Promise<unknown> {
    const path = collectionPath(toGroupVersionResource(resource), options.namespace || undefined);
    return this.requestJson('DELETE', withQuery(path, listQuery(options)), options);
  }

  /**
   * Sends `body` (JSON, unless `contentType` says another patch type) to `path` with
   * `method` and parses the answer (undefined when empty): JSON, or protobuf for a built-in
   * type's resource when the client prefers it (`contentType`). Throws `ApiStatusError`
   * (its `statusCode` and the apiserver's `status`), or `ResourceExpiredError` on 410.
   */
  async requestJson<T = unknown>(
    method: RestMethod,
    path: string,
    options: RequestOptions & { body?: unknown; contentType?: string; verb?: RequestVerb } = {},
  ): Promise<T> {
    const { statusCode, headers, body } = await this.request(method, path, {
      ...options,
      headers: {
        Accept: negotiatedAccept(path, CONTENT_TYPE_JSON, this.#options.contentType),
        ...(options.body !== undefined && {
          'Content-Type': options.contentType ?? 'application/json',
        }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    if (statusCode < 200 || statusCode > 299)
      throw statusError(statusCode, body, `${method} ${path}`, headers);
    return decodeBody(body, headers) as T;
  }

  /**
   * Sends `method` to `path` (with its query string) with `headers` and `body`, and reads
   * the whole answer, gunzipped, whatever its status. Rejects only when no answer came
   * (connection error, `signal` aborted).
   */
  async request(
    method: RestMethod,
    path: string,
    options: RequestOptions & {
      headers?: Record<string, string>;
      body?: string | Buffer;
      verb?: RequestVerb;
    } = {},
  ): Promise<RestResponse> {
    const { response, body, idleError } = await this.#send({
      verb: options.verb ?? (method.toLowerCase() as RequestVerb),
      method,
      url: path,
      headers: options.headers,
      body: typeof options.body === 'string' ? Buffer.from(options.body) : options.body,
      signal: options.signal,
      idleTimeoutMs: this.#options.listIdleTimeoutMs,
      unthrottled: options.unthrottled,
    });
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

  /**
   * GETs `path` and returns the 2xx answer's body as it arrives (gunzipped), for a log or
   * another stream of no fixed end; `signal` closes it. Rate limited; no idle timeout (a
   * followed log may stay silent). Throws the status error of any other answer.
   */
  async stream(
    path: string,
    options: { signal?: AbortSignal; accept?: string } = {},
  ): Promise<Readable> {
    const { response, body } = await this.#send({
      verb: 'get',
      method: 'GET',
      url: path,
      headers: { Accept: options.accept ?? '*/*' },
      signal: options.signal,
    });
    const code = response.statusCode ?? 0;
    if (code < 200 || code > 299)
      throw statusError(code, await readBody(body), `GET ${path}`, response.headers);
    return body;
  }

  /**
   * GETs a collection at `path` and parses the body (JSON; protobuf where `accept` is JSON,
   * the path a built-in type's and the client prefers it). Errors as {@link Client.getBody}.
   */
  async getJson(
    path: string,
    query: Query,
    accept: string,
    signal?: AbortSignal,
    options: { unthrottled?: boolean } = {},
  ): Promise<unknown> {
    const { body, headers } = await this.#get(
      path,
      query,
      this.#accept(path, accept),
      signal,
      undefined,
      options.unthrottled,
    );
    return decodeBody(body, headers);
  }

  /**
   * LISTs `path` and returns the body unparsed, in the format `accept` asks for. Throws
   * `ApiStatusError`, or `ResourceExpiredError` on 410. `onHead` (optional) is called once,
   * on a 200 answer, with the first bytes of the body (at least 8 KiB, or up to `"items":`,
   * or all of it): enough to read a list's metadata before the rest has arrived.
   */
  async getBody(
    path: string,
    query: Query,
    accept: string,
    signal?: AbortSignal,
    onHead?: (head: Buffer) => void,
    options: { unthrottled?: boolean } = {},
  ): Promise<Buffer> {
    return (await this.#get(path, query, accept, signal, onHead, options.unthrottled)).body;
  }

  /** GETs `path` and reads the whole 200 answer; throws the status error of any other. */
  async #get(
    path: string,
    query: Query,
    accept: string,
    signal: AbortSignal | undefined,
    onHead: ((head: Buffer) => void) | undefined,
    unthrottled: boolean | undefined,
  ): Promise<{ body: Buffer; headers: IncomingHttpHeaders }> {
    const url = withQuery(path, query);
    const sent = await this.#list(url, accept, signal, unthrottled);
    const ok = sent.response.statusCode === 200;
    let body: Buffer;
    try {
      body = await readBody(sent.body, ok ? onHead : undefined);
    } catch (error) {
      throw sent.idleError() ?? error;
    }
    if (!ok)
      throw statusError(sent.response.statusCode ?? 0, body, `LIST ${url}`, sent.response.headers);
    return { body, headers: sent.response.headers };
  }

  /**
   * LISTs `path` and parses it while it arrives: each item as soon as its last byte is in,
   * so parsing overlaps the transfer. Errors and `onHead` as {@link Client.getBody};
   * `parsing` goes to the parser (e.g. leaving `managedFields` out).
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
    } = await this.#list(url, this.#accept(path, accept), signal);
    try {
      if (response.statusCode !== 200) {
        const body = await readBody(stream);
        throw statusError(response.statusCode ?? 0, body, `LIST ${url}`, response.headers);
      }
      const parser = isProtobuf(response.headers)
        ? new ProtobufListParser(parsing)
        : new ListBodyParser(parsing);
      await readBody(stream, onHead, (chunk) => parser.push(chunk));
      return parser.end();
    } catch (error) {
      throw idleError() ?? error;
    }
  }

  /**
   * Opens a WATCH on `path` and calls `onEvent` for each event, in order. Resolves when
   * the server ends the stream; rejects on a broken connection, an HTTP error status
   * (`ApiStatusError`, `ResourceExpiredError` on 410), a malformed line (`WatchStreamError`)
   * or an exception from `onEvent` (the connection is closed then). `idleTimeoutMs` closes
   * a connection on which nothing arrived for that long (a half-open socket); `onOpen` is
   * called once the server accepted the watch; `decoding.dropManagedFields` lets a protobuf
   * stream's objects come without `metadata.managedFields`. Not rate limited, as client-go
   * does not limit watches.
   */
  async watch(
    path: string,
    query: Query,
    accept: string,
    onEvent: (event: RawWatchEvent) => void,
    signal?: AbortSignal,
    idleTimeoutMs?: number,
    onOpen?: () => void,
    decoding: { dropManagedFields?: boolean } = {},
  ): Promise<void> {
    const url = withQuery(path, { ...query, watch: 'true' });
    const { response, body, idleError } = await this.#send({
      verb: 'watch',
      method: 'GET',
      url,
      headers: { Accept: this.#accept(path, accept) },
      signal,
      idleTimeoutMs,
    });
    if (response.statusCode !== 200) {
      throw statusError(
        response.statusCode ?? 0,
        await readBody(body),
        `WATCH ${url}`,
        response.headers,
      );
    }
    onOpen?.();
    await readWatchStream(url, response, body, onEvent, idleError, {
      protobuf: isProtobuf(response.headers),
      dropManagedFields: decoding.dropManagedFields === true,
    });
  }

  /** The Accept header for `accept` on `path`: protobuf first where negotiated. */
  #accept(path: string, accept: string): string {
    return negotiatedAccept(path, accept, this.#options.contentType);
  }

  /** Closes the idle connections of the pool (in-flight requests finish). */
  close(): void {
    this.#transport.close();
  }

  #list(
    url: string,
    accept: string,
    signal?: AbortSignal,
    unthrottled?: boolean,
  ): Promise<SentRequest> {
    return this.#send({
      verb: 'list',
      method: 'GET',
      url,
      headers: { Accept: accept },
      signal,
      idleTimeoutMs: this.#options.listIdleTimeoutMs,
      unthrottled,
    });
  }

  /**
   * Waits for a token (but for a WATCH or an `unthrottled` request), sends, and sends again
   * after the server's delay while it answers 429 (or 5xx with `Retry-After`), at most
   * `maxRetries` times, each time through the bucket again as client-go does.
   */
  async #send(
    request: TransportRequest & { unthrottled?: boolean | undefined },
  ): Promise<SentRequest> {
    const { clock, maxRetries } = this.#options;
    for (let attempt = 0; ; attempt++) {
      if (request.verb !== 'watch' && request.unthrottled !== true) {
        await this.#throttle.wait(request.method, this.#host(), request.signal);
      }
      const sent = await this.#transport.send(request);
      const delay = attempt < maxRetries ? retryDelayMs(sent.response, clock.now()) : undefined;
      if (delay === undefined) return sent;
      // Drain the answer, so its connection goes back to the pool, then wait as asked.
      await readBody(sent.body).catch(() => undefined);
      await sleep(clock, delay, request.signal ?? new AbortController().signal);
      request.signal?.throwIfAborted();
    }
  }

  /** The server's `host:port`, for the rate limiter's metric (parsed once per server URL). */
  #host(): string {
    const server = this.kubeConfig.getCurrentCluster()?.server ?? '';
    if (server !== this.#server.url) {
      let host = '';
      try {
        host = new URL(server).host;
      } catch {
        // an invalid URL fails the request itself
      }
      this.#server = { url: server, host };
    }
    return this.#server.host;
  }
}

/**
 * A client for `kubeConfig` (client-node's `KubeConfig`, or what `loadKubeConfig`
 * returns): the standalone constructor for a program without a Manager. A program makes
 * one and hands it to everything that makes requests; a Manager makes its own
 * (`manager.client`), counted on its registry.
 */
export function createClient(kubeConfig: KubeConfigLike, options: ClientOptions = {}): Client {
  return new Client(kubeConfig, options);
}
