// The exec/attach stream driver against a loopback WebSocket peer that speaks the channel
// protocol (not an API server: the framing and the endings are what is under test here; the
// real apiserver path is apps/virtual-kubelet/src/exec.int.test.ts).
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { StreamClosedError } from '../errors/stream-closed-error.js';
import { holdMessages } from '../internal/open-web-socket.js';
import {
  decodeFrame,
  encodeFrame,
  STREAM_PROTOCOL_V4,
  STREAM_PROTOCOL_V5,
} from './channel-protocol.js';
import { streamRemoteCommand } from './remote-command-stream.js';

type Peer = (socket: WebSocket, received: Buffer[]) => void;

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
});

/** A client socket connected to a peer that speaks `protocol` and does what `peer` says; `received` holds what the client sent. */
async function connect(protocol: string, peer: Peer) {
  const received: Buffer[] = [];
  const closed = new Promise<void>((resolve) => {
    const server = new WebSocketServer({
      port: 0,
      host: '127.0.0.1',
      handleProtocols: () => protocol,
    });
    servers.push(server);
    server.on('connection', (socket) => {
      socket.on('message', (data: Buffer) => received.push(data));
      socket.on('close', () => resolve());
      peer(socket, received);
    });
  });
  const server = servers.at(-1) as WebSocketServer;
  await new Promise((r) => (server.address() ? r(undefined) : server.once('listening', r)));
  const { port } = server.address() as AddressInfo;
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, [STREAM_PROTOCOL_V5, STREAM_PROTOCOL_V4]);
  holdMessages(socket);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return { socket, received, closed };
}

const text = (stream: unknown): string =>
  ((stream as PassThrough).read() ?? Buffer.alloc(0)).toString();
const SUCCESS = JSON.stringify({ metadata: {}, status: 'Success' });

function streams(overrides: Partial<Parameters<typeof streamRemoteCommand>[1]> = {}) {
  return {
    stdin: undefined,
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    terminalSizes: undefined,
    signal: undefined,
    ...overrides,
  };
}

describe('streamRemoteCommand', () => {
  it('splits stdout and stderr by stream and resolves to the exit status written on stream 3', async () => {
    const { socket } = await connect(STREAM_PROTOCOL_V5, (peer) => {
      peer.send(encodeFrame(1, 'out'));
      peer.send(encodeFrame(2, 'err'));
      peer.send(
        encodeFrame(
          3,
          JSON.stringify({
            status: 'Failure',
            reason: 'NonZeroExitCode',
            details: { causes: [{ reason: 'ExitCode', message: '42' }] },
          }),
        ),
      );
      peer.close(1000);
    });
    const s = streams();
    expect(await streamRemoteCommand(socket, s, 'EXEC x')).toEqual({ exitCode: 42 });
    expect(text(s.stdout)).toBe('out');
    expect(text(s.stderr)).toBe('err');
  });

  it('rejects with StreamClosedError when the server closes before the exit status', async () => {
    const { socket } = await connect(STREAM_PROTOCOL_V5, (peer) => {
      peer.send(encodeFrame(1, 'partial'));
      peer.close(1011, 'gone away');
    });
    const error = await streamRemoteCommand(socket, streams(), 'EXEC x').catch((e: unknown) => e);
    expect(StreamClosedError.isInstance(error)).toBe(true);
    expect((error as StreamClosedError).code).toBe(1011);
    expect((error as Error).message).toContain('gone away');
  });

  it('rejects with StreamClosedError when the connection drops without a close frame', async () => {
    const { socket } = await connect(STREAM_PROTOCOL_V5, (peer) => peer.terminate());
    const error = await streamRemoteCommand(socket, streams(), 'EXEC x').catch((e: unknown) => e);
    expect(StreamClosedError.isInstance(error)).toBe(true);
    expect((error as StreamClosedError).code).toBe(1006);
  });

  it('sends stdin on stream 0 and, under v5, its end as CLOSE 255 0', async () => {
    const { socket, received } = await connect(STREAM_PROTOCOL_V5, (peer) => {
      peer.on('message', (data: Buffer) => {
        if (data[0] === 255) {
          peer.send(encodeFrame(3, SUCCESS));
          peer.close(1000);
        }
      });
    });
    const s = streams({ stdin: Readable.from(['a', 'b']) });
    expect(await streamRemoteCommand(socket, s, 'EXEC x')).toEqual({ exitCode: 0 });
    expect(received.map((m) => [...m])).toEqual([
      [0, 0x61],
      [0, 0x62],
      [255, 0],
    ]);
  });

  it('under v4 sends no CLOSE (the protocol has none), and resizes as JSON on stream 4', async () => {
    const { socket, received } = await connect(STREAM_PROTOCOL_V4, (peer) => {
      setTimeout(() => {
        peer.send(encodeFrame(3, SUCCESS));
        peer.close(1000);
      }, 100);
    });
    async function* sizes() {
      yield { width: 80, height: 24 };
    }
    const s = streams({ stdin: Readable.from(['x']), terminalSizes: sizes() });
    await streamRemoteCommand(socket, s, 'EXEC x');
    const frames = received.map((m) => decodeFrame(m));
    expect(frames.some((f) => f.channel === 255)).toBe(false);
    expect(frames.find((f) => f.channel === 4)?.data.toString()).toBe('{"Width":80,"Height":24}');
  });

  it('an abort closes the socket and rejects with the reason', async () => {
    const { socket, closed } = await connect(STREAM_PROTOCOL_V5, () => {});
    const controller = new AbortController();
    const running = streamRemoteCommand(socket, streams({ signal: controller.signal }), 'EXEC x');
    controller.abort(new Error('stop'));
    await expect(running).rejects.toThrow('stop');
    await closed;
  });
});
