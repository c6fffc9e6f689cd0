//! Opens a WebSocket to the API server with the kubeconfig's TLS material and credentials, counted in the metrics.

import { Agent, type IncomingMessage } from 'node:http';
import type * as https from 'node:https';
import { InvalidArgumentError } from '@ctrlkit/core';
import type WebSocket from 'ws';
import { readBody } from '../response-body.js';
import type { RestClientMetrics } from '../rest-client-metrics.js';
import { statusError } from '../status-error.js';
import { TlsVerificationError } from '../tls-verification-error.js';
import type { KubeConfigLike } from '../transport.js';

/** What opening a WebSocket needs of the client. */
export interface WebSocketTarget {
  readonly kubeConfig: KubeConfigLike;
  readonly userAgent: string;
  readonly metrics: RestClientMetrics | undefined;
}

/** What each client's WebSockets need, kept out of the client's public API (whose types would then need `ws`'s). */
const targets = new WeakMap<object, WebSocketTarget>();

/** Records what `client`'s WebSockets need: called by its constructor. */
export function registerWebSocketTarget(client: object, target: WebSocketTarget): void {
  targets.set(client, target);
}

/** What `client` (a `Client`) opens its WebSockets with. */
export function webSocketTarget(client: object): WebSocketTarget {
  const target = targets.get(client);
  if (target === undefined) throw new InvalidArgumentError('client', 'is not a Client');
  return target;
}

/**
 * A WebSocket to `path` (with its query) on the kubeconfig's server, offering
 * `protocols` in order. The upgrade request carries what every request of the client
 * carries (CA, client certificate, bearer token or basic auth, impersonation, User-Agent)
 * and is reported to the metrics as a GET (code `101` once upgraded). An answer that is
 * not an upgrade rejects with the Status error of its body (`ApiStatusError`: 404 for a
 * missing pod, 400 for a missing container); an untrusted server certificate with a
 * `TlsVerificationError`; `signal` closes the socket and rejects with its reason.
 */
export async function openWebSocket(
  target: WebSocketTarget,
  path: string,
  protocols: readonly string[],
  signal: AbortSignal | undefined,
): Promise<WebSocket> {
  const cluster = target.kubeConfig.getCurrentCluster();
  if (!cluster) throw new InvalidArgumentError('kubeConfig', 'has no current cluster');
  const options: https.RequestOptions = {};
  await target.kubeConfig.applyToHTTPSOptions(options);
  signal?.throwIfAborted();
  const base = cluster.server.replace(/\/+$/, '');
  const url = new URL(base + path);
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  if (options.auth) {
    // Basic auth: ws takes it from the URL.
    const colon = options.auth.indexOf(':');
    url.username = encodeURIComponent(options.auth.slice(0, colon));
    url.password = encodeURIComponent(options.auth.slice(colon + 1));
  }
  // `servername` goes on to tls.connect (ws's types leave it out).
  const socketOptions: WebSocket.ClientOptions & { servername?: string } = {
    ca: options.ca,
    cert: options.cert,
    key: options.key,
    rejectUnauthorized: options.rejectUnauthorized,
    servername: options.servername,
    agent: cluster.proxyUrl && options.agent instanceof Agent ? options.agent : undefined,
    headers: { ...(options.headers as Record<string, string>), 'User-Agent': target.userAgent },
    perMessageDeflate: false,
  };
  // ws (about 1.7 MB of heap) loads with the first WebSocket, not with the client.
  const { default: WebSocketClient } = await import('ws');
  signal?.throwIfAborted();
  const socket = new WebSocketClient(url, [...protocols], socketOptions);
  holdMessages(socket);
  const started = performance.now();
  const host = url.host;
  const observe = (code: string): void =>
    target.metrics?.observe({
      method: 'GET',
      host,
      code,
      seconds: (performance.now() - started) / 1000,
    });
  return new Promise<WebSocket>((resolve, reject) => {
    const onAbort = (): void => {
      socket.terminate();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (): void => signal?.removeEventListener('abort', onAbort);
    socket.once('open', () => {
      settle();
      observe('101');
      resolve(socket);
    });
    socket.once('unexpected-response', (request, response: IncomingMessage) => {
      settle();
      observe(String(response.statusCode ?? 0));
      readBody(response).then(
        (body) => {
          request.destroy();
          reject(statusError(response.statusCode ?? 0, body, `GET ${path}`, response.headers));
        },
        (error: unknown) => {
          request.destroy();
          reject(error);
        },
      );
    });
    socket.once('error', (error) => {
      settle();
      observe('<error>');
      reject(TlsVerificationError.wrap(error, cluster.server));
    });
  });
}

/** Messages that came before their reader listened, per socket, and the listener that kept them. */
const held = new WeakMap<WebSocket, { messages: Buffer[]; keep: (data: Buffer) => void }>();

/**
 * Keeps `socket`'s messages until {@link onMessages} takes them: a server may write right
 * after the upgrade, in the same packet, and ws emits those messages before a caller awaiting
 * the `open` event could listen.
 */
export function holdMessages(socket: WebSocket): void {
  const messages: Buffer[] = [];
  const keep = (data: Buffer): void => {
    messages.push(data);
  };
  socket.on('message', keep);
  held.set(socket, { messages, keep });
}

/** Calls `listener` with each message of `socket`: first those held since it opened, then the rest. */
export function onMessages(socket: WebSocket, listener: (data: Buffer) => void): void {
  const hold = held.get(socket);
  if (hold !== undefined) {
    held.delete(socket);
    socket.off('message', hold.keep);
    for (const message of hold.messages) listener(message);
  }
  socket.on('message', listener);
}
