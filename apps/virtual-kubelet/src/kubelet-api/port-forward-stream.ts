//! The kubelet's /portForward over WebSocket (`v4.channel.k8s.io`): per port a data and an error stream, each opened with the port number.

import type { IncomingMessage } from 'node:http';
import { Duplex } from 'node:stream';
import { decodeFrame, encodeFrame, STREAM_PROTOCOL_V4 } from '@ctrlkit/client/streaming';
import type { Logger } from '@ctrlkit/core';
import type { PortForwardProvider } from '@ctrlkit/node-controller';
import { type WebSocket, WebSocketServer } from 'ws';

/** `/portForward/<namespace>/<pod>` (also with the pod's UID after it, as the kubelet's). */
export const PORT_FORWARD_PATH = /^\/portForward\/([^/]+)\/([^/]+)(?:\/[^/]+)?\/?$/;

/** A refusal before the upgrade: an HTTP status and its message. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
}

/**
 * Answers a WebSocket upgrade to `/portForward/<namespace>/<pod>?port=N`: one port per
 * WebSocket (the kubelet takes several; the apiserver's clients ask one), refused with 400
 * for a missing or bad port or another protocol, 501 without `provider`. Once accepted, the
 * port number goes out on streams 0 (data) and 1 (errors), then the provider's connection
 * is piped to stream 0 and its failure written on stream 1, and the socket closes.
 */
export function portForwardUpgrade(
  provider: PortForwardProvider | undefined,
  logger: Logger,
): (
  req: IncomingMessage,
  match: RegExpExecArray,
  accept: (serve: (ws: WebSocket) => void) => void,
) => Refusal | undefined {
  return (req, match, accept) => {
    if (provider === undefined)
      return { status: 501, message: 'portforward is not supported by this provider' };
    const url = new URL(req.url ?? '/', 'https://localhost');
    const ports = url.searchParams.getAll('port');
    const port = Number(ports[0]);
    if (ports.length !== 1 || !Number.isInteger(port) || port < 1 || port > 65535)
      return {
        status: 400,
        message: `want one port (1..65535) in the query, got ${JSON.stringify(ports)}`,
      };
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '').split(/\s*,\s*/);
    if (!protocols.includes(STREAM_PROTOCOL_V4))
      return { status: 400, message: `port-forward speaks ${STREAM_PROTOCOL_V4} only` };
    const namespace = decodeURIComponent(match[1] ?? '');
    const pod = decodeURIComponent(match[2] ?? '');
    accept((ws) => {
      forward(ws, provider, namespace, pod, port).catch((error: unknown) =>
        logger.error({ err: error, namespace, pod, port }, 'kubelet API port-forward failed'),
      );
    });
    return undefined;
  };
}

/** The server the port-forward upgrades go through: `v4.channel.k8s.io` only. */
export function portForwardServer(): WebSocketServer {
  return new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    handleProtocols: (offered) => (offered.has(STREAM_PROTOCOL_V4) ? STREAM_PROTOCOL_V4 : false),
  });
}

async function forward(
  ws: WebSocket,
  provider: PortForwardProvider,
  namespace: string,
  pod: string,
  port: number,
): Promise<void> {
  const gone = new AbortController();
  const portBytes = Buffer.alloc(2);
  portBytes.writeUInt16LE(port);
  ws.send(encodeFrame(0, portBytes));
  ws.send(encodeFrame(1, portBytes));
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      if (ws.readyState !== ws.OPEN) return callback();
      ws.send(encodeFrame(0, chunk), () => callback());
    },
  });
  ws.on('message', (message: Buffer) => {
    const { channel, data } = decodeFrame(message);
    if (channel === 0) stream.push(data);
  });
  ws.once('close', () => {
    gone.abort(new Error('the client closed the stream'));
    stream.push(null);
  });
  try {
    await provider.portForward(gone.signal, namespace, pod, port, stream);
  } catch (error) {
    if (ws.readyState === ws.OPEN)
      ws.send(
        encodeFrame(
          1,
          `error forwarding port ${port} to pod ${namespace}/${pod}: ${(error as Error).message}`,
        ),
      );
  }
  if (ws.readyState === ws.OPEN) ws.close(1000);
}
