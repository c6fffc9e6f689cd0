//! A loopback TCP proxy that a test can blackhole (a network partition between one process and the apiserver), run as a process of its own (test/tcp-proxy.mjs).

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** A running proxy from `127.0.0.1:port` to its target. */
export interface TcpProxy {
  /** The port it listens on (127.0.0.1). */
  readonly port: number;
  /**
   * From now on no byte passes, either way: open connections stay open but go silent (what
   * a client sees of a partition: requests hang, nothing is refused), new ones are accepted
   * and never forwarded. Resolves once the proxy has cut.
   */
  blackhole(): Promise<void>;
  /** Stops the proxy (and so closes every connection). */
  close(): Promise<void>;
}

/** Starts a proxy process on a free loopback port to `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const script = fileURLToPath(new URL('./tcp-proxy.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, target.host, String(target.port)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const closed = once(child, 'close');
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const line = await lines.next();
    if (line.done) throw new Error('tcp proxy: exited');
    return JSON.parse(line.value) as Record<string, unknown>;
  };
  const { port } = await next();
  if (typeof port !== 'number') throw new Error(`tcp proxy: no port (${String(port)})`);
  return {
    port,
    async blackhole() {
      child.stdin.write('blackhole\n');
      while ((await next()).cut !== true);
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await closed;
    },
  };
}
