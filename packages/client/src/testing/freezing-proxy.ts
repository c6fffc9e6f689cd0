//! A TCP proxy that can freeze its connections (forward nothing, close nothing), for half-open connection tests.

import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the apiserver that can freeze its open connections: it stops
 * forwarding bytes in both directions without closing anything (a half-open connection,
 * as a lost NAT entry or a vanished peer leaves). New connections are forwarded.
 */
export class FreezingProxy {
  readonly #open = new Set<{ client: Socket; upstream: Socket; frozen: boolean }>();
  readonly #server: Server;
  port = 0;

  constructor(readonly targetPort: number) {
    this.#server = createServer((client) => {
      // one-client: not the API server (a TCP proxy in front of it: it forwards the one client's bytes and sends none of its own)
      const upstream = connect(this.targetPort, '127.0.0.1');
      const pair = { client, upstream, frozen: false };
      this.#open.add(pair);
      const close = () => {
        client.destroy();
        upstream.destroy();
        this.#open.delete(pair);
      };
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        from.on('data', (chunk) => {
          if (!pair.frozen) to.write(chunk);
        });
        from.on('error', close);
        from.on('close', () => {
          if (!pair.frozen) close();
        });
      }
    });
  }

  /** Listens on a free loopback port (then in `port`). */
  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.port = (this.#server.address() as { port: number }).port;
  }

  /** Stops forwarding on every open connection, closing none; returns how many. */
  freeze(): number {
    for (const pair of this.#open) pair.frozen = true;
    return this.#open.size;
  }

  /** Closes every connection and the listener. */
  async close(): Promise<void> {
    for (const pair of this.#open) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
