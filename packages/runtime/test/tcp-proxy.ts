//! A loopback TCP proxy that a test can blackhole: a network partition between one process and the apiserver.

import { connect, createServer, type Socket } from 'node:net';

/** A running proxy from `127.0.0.1:port` to its target. */
export interface TcpProxy {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /**
   * From now on no byte passes, either way: open connections stay open but go silent (what
   * a client sees of a partition: requests hang, nothing is refused), new ones are accepted
   * and never forwarded.
   */
  blackhole(): void;
  /** Closes every connection and the listener. */
  close(): Promise<void>;
}

/** Swallows what `socket` receives from now on, and stops forwarding it. */
function silence(socket: Socket): void {
  socket.unpipe();
  socket.removeAllListeners('data');
  socket.on('data', () => {});
}

/** Starts a proxy on a free loopback port to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let cut = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    track(client);
    if (cut) return silence(client);
    const upstream = connect(target.port, target.host);
    track(upstream);
    // A connection that ends on one side ends on the other, unless the proxy is cut.
    client.on('close', () => cut || upstream.destroy());
    upstream.on('close', () => cut || client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy: no TCP address');
  return {
    port: address.port,
    blackhole() {
      cut = true;
      for (const socket of sockets) silence(socket);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
