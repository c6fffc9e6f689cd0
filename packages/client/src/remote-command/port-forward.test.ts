// The port-forward connection against a loopback WebSocket peer that speaks the kubelet's
// port-forward framing (the apiserver path is apps/virtual-kubelet/src/exec.int.test.ts).
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { StreamClosedError } from '../errors/stream-closed-error.js';
import { holdMessages } from '../internal/open-web-socket.js';
import { decodeFrame, encodeFrame } from './channel-protocol.js';
import { connectionOf } from './port-forward.js';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
});

/** The 2-byte little-endian port number a node opens each stream with. */
const portBytes = (port: number) => {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16LE(port);
  return bytes;
};

/** A client socket to a peer that opens both streams for `announced` and then does what `peer` says. */
async function connect(announced: number, peer: (socket: WebSocket) => void): Promise<WebSocket> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  servers.push(server);
  server.on('connection', (socket) => {
    socket.send(encodeFrame(0, portBytes(announced)));
    socket.send(encodeFrame(1, portBytes(announced)));
    peer(socket);
  });
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, ['v4.channel.k8s.io']);
  holdMessages(socket);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return socket;
}

describe('port-forward connection', () => {
  it('skips the port numbers, sends writes on stream 0 and reads stream 0 until the node closes', async () => {
    const socket = await connect(8080, (peer) =>
      peer.on('message', (data: Buffer) => {
        const { channel, data: bytes } = decodeFrame(data);
        expect(channel).toBe(0);
        peer.send(encodeFrame(0, `echo:${bytes}`));
        peer.close(1000);
      }),
    );
    const duplex = connectionOf(socket, 8080, 'PORTFORWARD x', undefined);
    duplex.write('hi');
    expect(Buffer.concat(await duplex.toArray()).toString()).toBe('echo:hi');
  });

  it('destroys the Duplex with the node error (stream 1) as StreamClosedError', async () => {
    const socket = await connect(8080, (peer) => {
      peer.send(encodeFrame(1, 'dial tcp 127.0.0.1:8080: connection refused'));
      peer.close(1000);
    });
    const duplex = connectionOf(socket, 8080, 'PORTFORWARD x', undefined);
    const error = await duplex.toArray().catch((e: unknown) => e);
    expect(StreamClosedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'PORTFORWARD x: dial tcp 127.0.0.1:8080: connection refused',
    );
  });

  it('refuses a node that opened another port', async () => {
    const socket = await connect(9090, () => {});
    const duplex = connectionOf(socket, 8080, 'PORTFORWARD x', undefined);
    await expect(duplex.toArray()).rejects.toThrow('the node opened port 9090, not 8080');
  });

  it('an abort destroys the Duplex with the reason and closes the socket', async () => {
    const socket = await connect(8080, () => {});
    const controller = new AbortController();
    const duplex = connectionOf(socket, 8080, 'PORTFORWARD x', controller.signal);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    controller.abort(new Error('stop'));
    await expect(duplex.toArray()).rejects.toThrow('stop');
    await closed;
  });
});
