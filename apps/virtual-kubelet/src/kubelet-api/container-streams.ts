//! The kubelet's /exec and /attach (and the way to /portForward) over WebSocket (`v5.channel.k8s.io`, `v4.channel.k8s.io`), as the apiserver proxies them to a node that declares `ExtendWebSocketsToKubelet`.

import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { PassThrough, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  closedChannel,
  decodeFrame,
  encodeFrame,
  STREAM_PROTOCOL_V4,
  STREAM_PROTOCOL_V5,
  StreamChannel,
} from '@ctrlkit/client/streaming';
import type { Logger } from '@ctrlkit/core';
import type {
  AttachIO,
  ContainerExecProvider,
  PortForwardProvider,
  TermSize,
} from '@ctrlkit/node-controller';
import { type WebSocket, WebSocketServer } from 'ws';
import { PORT_FORWARD_PATH, portForwardServer, portForwardUpgrade } from './port-forward-stream.js';

/** The node feature that makes the apiserver proxy exec, attach and port-forward WebSockets to the kubelet as they are (Kubernetes 1.36+). */
export const EXTEND_WEB_SOCKETS_TO_KUBELET = 'ExtendWebSocketsToKubelet';

/** `/exec/<namespace>/<pod>/<container>` or `/attach/…` (also with the pod's UID before the container, as the kubelet's). */
const STREAM_PATH = /^\/(exec|attach)\/([^/]+)\/([^/]+)\/(?:[^/]+\/)?([^/]+)\/?$/;

/** A request the kubelet's remotecommand server reads: the apiserver's query names (`input`, `output`, `error`, `tty`, `command`). */
interface StreamRequest {
  readonly kind: 'exec' | 'attach';
  readonly namespace: string;
  readonly pod: string;
  readonly container: string;
  readonly command: string[];
  readonly stdin: boolean;
  readonly stdout: boolean;
  readonly stderr: boolean;
  readonly tty: boolean;
}

/**
 * Answers a WebSocket upgrade to `/exec/…` or `/attach/…` (`/portForward/…` through `ports`,
 * {@link portForwardUpgrade}) on the kubelet API: parses the
 * request (400 for a bad one, 501 when `provider` does not serve it, 404 for another
 * path), accepts `v5.channel.k8s.io` (else v4), runs the command through `provider` with
 * the streams, and writes its exit status on stream 3 before closing. When the client
 * goes, the command's signal aborts.
 */
export function streamUpgradeHandler(
  provider: ContainerExecProvider | undefined,
  ports: PortForwardProvider | undefined,
  logger: Logger,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const server = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    handleProtocols: (offered) =>
      offered.has(STREAM_PROTOCOL_V5)
        ? STREAM_PROTOCOL_V5
        : offered.has(STREAM_PROTOCOL_V4)
          ? STREAM_PROTOCOL_V4
          : false,
  });
  const forwarding = portForwardServer();
  const portForward = portForwardUpgrade(ports, logger);
  return (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'https://localhost');
    const forwarded = PORT_FORWARD_PATH.exec(url.pathname);
    if (forwarded !== null) {
      const refused = portForward(req, forwarded, (serve) =>
        forwarding.handleUpgrade(req, socket, head, serve),
      );
      if (refused !== undefined) writeRefusal(socket, refused.status, refused.message);
      return;
    }
    const refusal = refuse(url, req, provider);
    if (typeof refusal === 'object' && 'status' in refusal) {
      writeRefusal(socket, refusal.status, refusal.message);
      return;
    }
    server.handleUpgrade(req, socket, head, (ws) => {
      serveStream(ws, refusal, provider as ContainerExecProvider).catch((error: unknown) =>
        logger.error({ err: error, path: url.pathname }, 'kubelet API stream failed'),
      );
    });
  };
}

/** The parsed request, or why it is refused. */
function refuse(
  url: URL,
  req: IncomingMessage,
  provider: ContainerExecProvider | undefined,
): StreamRequest | { status: number; message: string } {
  const match = STREAM_PATH.exec(url.pathname);
  if (match === null)
    return { status: 404, message: `${url.pathname} is not served over WebSocket` };
  const kind = match[1] as 'exec' | 'attach';
  if (provider === undefined || (kind === 'attach' && provider.attachToContainer === undefined))
    return { status: 501, message: `${kind} is not supported by this provider` };
  const protocols = String(req.headers['sec-websocket-protocol'] ?? '').split(/\s*,\s*/);
  if (String(req.headers.upgrade).toLowerCase() !== 'websocket')
    return { status: 400, message: 'only WebSocket upgrades are served (not SPDY)' };
  if (!protocols.includes(STREAM_PROTOCOL_V5) && !protocols.includes(STREAM_PROTOCOL_V4))
    return {
      status: 400,
      message: `no supported protocol among ${JSON.stringify(protocols)}: want ${STREAM_PROTOCOL_V5} or ${STREAM_PROTOCOL_V4}`,
    };
  const flag = (name: string) => url.searchParams.get(name) === '1';
  const tty = flag('tty');
  const request: StreamRequest = {
    kind,
    namespace: decodeURIComponent(match[2] ?? ''),
    pod: decodeURIComponent(match[3] ?? ''),
    container: decodeURIComponent(match[4] ?? ''),
    command: url.searchParams.getAll('command'),
    stdin: flag('input'),
    stdout: flag('output'),
    // With a TTY stderr is stdout, as the kubelet's.
    stderr: flag('error') && !tty,
    tty,
  };
  if (kind === 'exec' && request.command.length === 0)
    return { status: 400, message: 'you must specify at least one command for the container' };
  if (!request.stdin && !request.stdout && !request.stderr)
    return { status: 400, message: 'you must specify at least 1 of stdin, stdout, stderr' };
  return request;
}

/** An HTTP answer instead of the upgrade, as a Status the apiserver passes on. */
function writeRefusal(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: status === 404 ? 'NotFound' : status === 501 ? 'NotImplemented' : 'BadRequest',
    code: status,
  });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Runs one accepted stream to its end: the exit status on stream 3, then a normal close. */
async function serveStream(
  ws: WebSocket,
  request: StreamRequest,
  provider: ContainerExecProvider,
): Promise<void> {
  const gone = new AbortController();
  const stdin = request.stdin ? new PassThrough() : undefined;
  const sizes = new PassThrough({ objectMode: true });
  const stdout = request.stdout ? channelWriter(ws, StreamChannel.stdout) : undefined;
  const stderr = request.stderr ? channelWriter(ws, StreamChannel.stderr) : undefined;
  ws.on('message', (message: Buffer) => {
    const { channel, data } = decodeFrame(message);
    if (channel === StreamChannel.stdin) stdin?.write(data);
    else if (channel === StreamChannel.resize) {
      const size = termSize(data);
      if (size !== undefined) sizes.write(size);
    } else if (channel === StreamChannel.close && closedChannel(data) === StreamChannel.stdin)
      stdin?.end();
  });
  ws.once('close', () => {
    gone.abort(new Error('the client closed the stream'));
    stdin?.end();
    sizes.end();
  });
  const attach: AttachIO = {
    stdin: () => stdin,
    stdout: () => stdout,
    stderr: () => stderr,
    tty: () => request.tty,
    resize: () => sizes as AsyncIterable<TermSize>,
  };
  const { namespace, pod, container } = request;
  let status: object;
  try {
    if (request.kind === 'exec') {
      const code = await provider.runInContainer(
        gone.signal,
        namespace,
        pod,
        container,
        request.command,
        attach,
      );
      status = code === 0 ? SUCCESS : nonZeroExit(code);
    } else {
      await provider.attachToContainer?.(gone.signal, namespace, pod, container, attach);
      status = SUCCESS;
    }
  } catch (error) {
    status = internalError(`error executing command in container: ${(error as Error).message}`);
  }
  sizes.end();
  for (const out of [stdout, stderr]) {
    out?.end();
    if (out !== undefined) await finished(out).catch(() => undefined);
  }
  if (gone.signal.aborted) return;
  ws.send(encodeFrame(StreamChannel.error, JSON.stringify(status)));
  ws.close(1000);
}

/** A stream that sends what is written to it on `channel`, one message per write, as the socket takes them. */
function channelWriter(ws: WebSocket, channel: number): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (ws.readyState !== ws.OPEN) return callback();
      ws.send(encodeFrame(channel, chunk), () => callback());
    },
  });
}

/** A resize message's size; undefined for a malformed one, which is skipped (as the kubelet does). */
function termSize(data: Buffer): TermSize | undefined {
  try {
    const { Width, Height } = JSON.parse(data.toString('utf8')) as {
      Width?: unknown;
      Height?: unknown;
    };
    if (Number.isInteger(Width) && Number.isInteger(Height))
      return { width: Width as number, height: Height as number };
  } catch {
    // skipped below
  }
  return undefined;
}

const SUCCESS = { metadata: {}, status: 'Success' };

/** The kubelet's Status for a command that exited with `code` (client-go reads the ExitCode cause). */
function nonZeroExit(code: number): object {
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: exit status ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  };
}

/** apimachinery's `NewInternalError` Status. */
function internalError(message: string): object {
  return {
    metadata: {},
    status: 'Failure',
    message: `Internal error occurred: ${message}`,
    reason: 'InternalError',
    details: { causes: [{ message }] },
    code: 500,
  };
}
