//! The HTTPS server that serves webhooks (controller-runtime's `webhook.Server`).

import { once } from 'node:events';
import {
  createSecureServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type Http2Session,
} from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { InvalidArgumentError, type Logger, noopLogger } from '@ctrlkit/core';
import { Registry } from 'prom-client';
import { CertWatcher } from './cert-watcher.js';
import { WebhookError } from './webhook-error.js';
import type { WebhookHandler } from './webhook-handler.js';
import { PrometheusWebhookMetrics, type WebhookMetrics } from './webhook-metrics.js';
import { answer } from './webhook-request.js';

/** controller-runtime's port: 9443. */
export const DEFAULT_WEBHOOK_PORT = 9443;
/** controller-runtime's certificate folder: `/tmp/k8s-webhook-server/serving-certs`. */
export const DEFAULT_CERT_DIR = '/tmp/k8s-webhook-server/serving-certs';
/** The largest request body read: 7 MiB, as controller-runtime (the apiserver's limit is 3 MiB per object). */
export const DEFAULT_MAX_REQUEST_BYTES = 7 * 1024 * 1024;

/** Options of a {@link WebhookServer}; each is checked at construction. */
export interface WebhookServerOptions {
  /** The address to listen on. Default: every interface. */
  host?: string;
  /** The port; 0 picks a free one (read {@link WebhookServer.port}). Default {@link DEFAULT_WEBHOOK_PORT}. */
  port?: number;
  /** The folder of the certificate and key. Default {@link DEFAULT_CERT_DIR}. */
  certDir?: string;
  /** The certificate's file name in `certDir`, PEM, with its chain. Default `tls.crt`. */
  certName?: string;
  /** The key's file name in `certDir`, PEM. Default `tls.key`. */
  keyName?: string;
  /** The largest request body, in bytes; larger ones are answered 413. Default {@link DEFAULT_MAX_REQUEST_BYTES}. */
  maxRequestBytes?: number;
  /** How often the certificate files are read again without a change event, in ms. Default 10 s. */
  certPollIntervalMs?: number;
  /** The registry of the webhook metrics. Default: the Manager's, when run by one; else a registry of its own. */
  registry?: Registry;
  /** Default: `noopLogger`. */
  logger?: Logger;
}

/**
 * Serves registered webhooks over HTTPS (TLS 1.2 or later; HTTP/2, or HTTP/1.1 for a client
 * that does not offer `h2`, as controller-runtime), as a manager runnable that every replica
 * runs (`needLeaderElection: false`).
 *
 * Guarantees:
 * - The certificate and key are read at start (a pair that does not load fails the start)
 *   and again whenever their files change; a new pair serves new connections, in-flight
 *   requests finish on theirs; a pair that does not load is logged and the old one kept.
 * - Every request is answered, never a crash: 404 (unknown path), 405 (not POST), 415 (not
 *   `application/json`), 413 (body over `maxRequestBytes`), 400 (not JSON, or not a review),
 *   and 200 with a review otherwise: the handler's answer, code 500 in the review when it
 *   threw, code 504 when it outlasted its `handlerTimeoutMs`.
 * - On stop, the server stops accepting connections and resolves once in-flight requests
 *   are answered.
 */
export class WebhookServer {
  /** The runnable's name. */
  readonly name = 'webhook-server';
  /** Webhooks serve on every replica. */
  readonly needLeaderElection = false;
  /** Resolves once the server listens; rejects when it cannot start. */
  readonly ready: Promise<void>;

  readonly #options: WebhookServerOptions;
  readonly #handlers = new Map<string, WebhookHandler>();
  readonly #logger: Logger;
  #registry: Registry | undefined;
  #server: Http2SecureServer | undefined;
  #started = false;
  #listening = false;
  #markReady: (error?: unknown) => void = () => {};
  #inFlight = 0;
  readonly #drained: Array<() => void> = [];
  /** Every TCP connection, from before its TLS handshake to its close. */
  readonly #sockets = new Set<Socket>();
  /** Every HTTP/2 connection (a session), to end gracefully on stop. */
  readonly #sessions = new Set<Http2Session>();

  constructor(options: WebhookServerOptions = {}) {
    checkServerOptions(options);
    this.#options = options;
    this.#logger = options.logger ?? noopLogger;
    this.#registry = options.registry;
    this.ready = new Promise<void>((resolve, reject) => {
      this.#markReady = (error) => (error === undefined ? resolve() : reject(error));
    });
    this.ready.catch(() => {});
  }

  /** Serves `webhook` at its path. Throws `InvalidArgumentError` for a path taken, `WebhookError` after start. */
  register(webhook: WebhookHandler): this {
    if (this.#started) throw new WebhookError('AlreadyStarted', 'register() after start()');
    if (
      typeof webhook?.handle !== 'function' ||
      typeof webhook.path !== 'string' ||
      !webhook.path.startsWith('/')
    ) {
      throw new InvalidArgumentError(
        'webhook',
        'expected a webhook with a path starting with / and a handle function',
      );
    }
    if (this.#handlers.has(webhook.path))
      throw new InvalidArgumentError('webhook.path', `${webhook.path} is already registered`);
    this.#handlers.set(webhook.path, webhook);
    return this;
  }

  /** The registered webhooks, by path. */
  get webhooks(): ReadonlyMap<string, WebhookHandler> {
    return this.#handlers;
  }

  /** Puts the metrics on `registry` when none was given; the Manager calls it. No effect after start. */
  useRegistry(registry: Registry): void {
    if (!this.#started) this.#registry ??= registry;
  }

  /** True while the server accepts connections (the Manager's `webhook` readiness check). */
  get listening(): boolean {
    return this.#listening;
  }

  /** The port it listens on, once it does. */
  get port(): number | undefined {
    return (this.#server?.address() as AddressInfo | null)?.port;
  }

  /**
   * Listens, and serves until `signal` aborts; then stops accepting and resolves once
   * in-flight requests are answered. Rejects with `WebhookError` (`CertificateInvalid`,
   * `ListenFailed`, `AlreadyStarted`).
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new WebhookError('AlreadyStarted', 'start() called twice');
    this.#started = true;
    const certDir = this.#options.certDir ?? DEFAULT_CERT_DIR;
    const watcher = new CertWatcher({
      certFile: join(certDir, this.#options.certName ?? 'tls.crt'),
      keyFile: join(certDir, this.#options.keyName ?? 'tls.key'),
      logger: this.#logger,
      onChange: (pair) => this.#server?.setSecureContext({ ...pair, minVersion: 'TLSv1.2' }),
      ...(this.#options.certPollIntervalMs !== undefined && {
        pollIntervalMs: this.#options.certPollIntervalMs,
      }),
    });
    try {
      const pair = await watcher.load();
      this.#server = this.#createServer(pair);
      await this.#listen(this.#server);
    } catch (error) {
      this.#markReady(error);
      throw error;
    }
    watcher.start();
    this.#listening = true;
    this.#markReady();
    this.#logger.info(
      { port: this.port, webhooks: [...this.#handlers.keys()] },
      'webhook server listening',
    );
    try {
      if (!signal.aborted) await once(signal, 'abort');
    } finally {
      this.#listening = false;
      watcher.stop();
      await this.#close(this.#server);
    }
  }

  /** HTTP/2 and HTTP/1.1 (ALPN `h2` first), as controller-runtime's server offers `h2`. */
  #createServer(pair: { cert: string; key: string }): Http2SecureServer {
    const metrics: WebhookMetrics = new PrometheusWebhookMetrics(this.#registry ?? new Registry());
    const limits = { maxRequestBytes: this.#options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES };
    const server = createSecureServer(
      { ...pair, minVersion: 'TLSv1.2', allowHTTP1: true },
      (request: Http2ServerRequest, response: Http2ServerResponse) => {
        this.#requestStarted(response);
        const handler = this.#handlers.get(new URL(request.url ?? '/', 'https://webhook').pathname);
        answer(request, response, handler, metrics, limits, this.#logger);
      },
    );
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    server.on('session', (session: Http2Session) => {
      this.#sessions.add(session);
      session.on('close', () => this.#sessions.delete(session));
    });
    server.on('tlsClientError', (error) =>
      this.#logger.debug({ err: error }, 'TLS handshake failed'),
    );
    return server;
  }

  async #listen(server: Http2SecureServer): Promise<void> {
    const port = this.#options.port ?? DEFAULT_WEBHOOK_PORT;
    try {
      server.listen(port, this.#options.host);
      await once(server, 'listening');
    } catch (error) {
      throw new WebhookError(
        'ListenFailed',
        `webhook server cannot listen on ${this.#options.host ?? '*'}:${port}: ${String(error)}`,
        { cause: error },
      );
    }
  }

  /**
   * Stops accepting, tells HTTP/2 clients to open no new streams (GOAWAY), waits for the
   * requests in flight to be answered (each is bounded by its handler's time limit), then
   * closes every connection: a client's kept-alive connections, and those still in their
   * TLS handshake, would otherwise hold the close until they time out.
   */
  async #close(server: Http2SecureServer): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const session of this.#sessions) session.close();
    while (this.#inFlight > 0) await new Promise<void>((resolve) => this.#drained.push(resolve));
    for (const session of this.#sessions) session.destroy();
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  #requestStarted(response: Http2ServerResponse): void {
    this.#inFlight++;
    response.on('close', () => {
      this.#inFlight--;
      for (const resolve of this.#drained.splice(0)) resolve();
    });
  }
}

function checkServerOptions(options: WebhookServerOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'expected an options object');
  const { port, maxRequestBytes, certPollIntervalMs } = options;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new InvalidArgumentError(
      'options.port',
      `must be an integer from 0 to 65535, got ${String(port)}`,
    );
  }
  if (
    maxRequestBytes !== undefined &&
    !(Number.isInteger(maxRequestBytes) && maxRequestBytes > 0)
  ) {
    throw new InvalidArgumentError(
      'options.maxRequestBytes',
      `must be a positive integer, got ${String(maxRequestBytes)}`,
    );
  }
  if (
    certPollIntervalMs !== undefined &&
    !(Number.isInteger(certPollIntervalMs) && certPollIntervalMs > 0)
  ) {
    throw new InvalidArgumentError(
      'options.certPollIntervalMs',
      `must be a positive integer, got ${String(certPollIntervalMs)}`,
    );
  }
}
