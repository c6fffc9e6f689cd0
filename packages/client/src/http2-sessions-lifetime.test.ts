import { execFile } from 'node:child_process';
import { once } from 'node:events';
import * as http2 from 'node:http2';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { waitFor } from '@ctrlkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Http2Answer, Http2Sessions } from './http2-sessions.js';

/** A cleartext HTTP/2 server allowing `maxConcurrentStreams` streams per connection; `onStream` answers. */
async function h2Server(
  maxConcurrentStreams: number,
  onStream: (stream: http2.ServerHttp2Stream) => void,
): Promise<{ port: number; close: () => Promise<unknown> }> {
  const server = http2.createServer({ settings: { maxConcurrentStreams } });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => sessions.add(session));
  server.on('stream', onStream);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const session of sessions) session.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A TCP proxy that forwards its `n`-th connection (from 0) only after `delaysMs[n]` ms
 * (0 when not given): the client is connected, but the server's SETTINGS are that late.
 */
async function delayingProxy(
  targetPort: number,
  delaysMs: readonly number[],
): Promise<{ origin: string; close: () => Promise<unknown> }> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let accepted = 0;
  const server = createServer((client) => {
    client.pause();
    sockets.add(client);
    // A reset connection just ends: the client under test sees it.
    client.on('error', () => {});
    const timer = setTimeout(() => {
      timers.delete(timer);
      // one-client: not the API server (a test's TCP proxy in front of a local HTTP/2 server)
      const upstream = connect(targetPort, '127.0.0.1');
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      client.pipe(upstream).pipe(client);
    }, delaysMs[accepted++] ?? 0);
    timers.add(timer);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A program that sends one GET through a fresh `Http2Sessions` (this package's source,
 * loaded by Node's type stripping), aborted after `argv[3]` ms if given, prints the status
 * and body (or the error's name), and returns without closing anything: it must exit by
 * itself once the request is over, and not before.
 */
const ONE_REQUEST_PROGRAM = `
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (!specifier.startsWith('.') || !specifier.endsWith('.js')) throw error;
      return next(specifier.slice(0, -3) + '.ts', context);
    }
  },
});
const { Http2Sessions } = await import(process.argv[1]);
const [origin, abortAfterMs] = process.argv.slice(2);
const signal = abortAfterMs === undefined ? undefined : AbortSignal.timeout(Number(abortAfterMs));
try {
  const answer = await new Http2Sessions().request(origin, {}, '/one', {}, signal);
  let body = '';
  for await (const chunk of answer.stream) body += chunk;
  console.log(answer.statusCode, body);
} catch (error) {
  console.log(error.name);
}
`;

/** Runs {@link ONE_REQUEST_PROGRAM}; killed after 15 s if it does not exit by itself (a session kept referenced). */
function runOneRequest(args: string[]) {
  const module = new URL('./http2-sessions.ts', import.meta.url).href;
  return promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', ONE_REQUEST_PROGRAM, module, ...args],
    { timeout: 15_000 },
  );
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('Http2Sessions keeps a process alive while a session is in use, and only then', () => {
  it('answers the one request of a program whose only session is still waiting for the SETTINGS, then lets it exit', async () => {
    const server = await h2Server(100, (stream) => {
      stream.respond({ ':status': 200 });
      stream.end('hello');
    });
    cleanups.push(server.close);
    const proxy = await delayingProxy(server.port, [500]);
    cleanups.push(proxy.close);
    const run = runOneRequest([proxy.origin]);
    const { stdout } = await run;
    expect(stdout).toBe('200 hello\n');
    expect(run.child.exitCode).toBe(0);
  }, 20_000);

  it('lets a program exit once its one request, aborted while the session waits for the SETTINGS, has given up', async () => {
    const server = await h2Server(100, (stream) => stream.respond({ ':status': 200 }));
    cleanups.push(server.close);
    const proxy = await delayingProxy(server.port, [10_000]);
    cleanups.push(proxy.close);
    const started = performance.now();
    const run = runOneRequest([proxy.origin, '200']);
    const { stdout } = await run;
    expect(stdout).toBe('TimeoutError\n');
    expect(run.child.exitCode).toBe(0);
    // Well before the proxy forwards anything: the abandoned session no longer held it.
    expect(performance.now() - started).toBeLessThan(8_000);
  }, 20_000);
});

describe('Http2Sessions pool', () => {
  it('places a stream on an open session with room rather than waiting for the one being dialled', async () => {
    const served: http2.ServerHttp2Stream[] = [];
    const server = await h2Server(1, (stream) => {
      served.push(stream);
      stream.respond({ ':status': 200 });
    });
    cleanups.push(server.close);
    const proxy = await delayingProxy(server.port, [0, 1_500]);
    cleanups.push(proxy.close);
    const sessions = new Http2Sessions();
    cleanups.push(() => sessions.close());
    const open = () => sessions.request(proxy.origin, {}, '/watch', {}, undefined);
    const a = await open();
    const first = a.stream.session;
    // The first session is full: b dials a second one, whose SETTINGS come 1.5 s late.
    const b = open();
    let bAnswered = false;
    b.then(
      () => {
        bAnswered = true;
      },
      () => {},
    );
    await waitFor('the second session to be dialled', () => sessions.size === 2);
    // a ends, on both sides (the server counts its streams once it has closed a's).
    const aServed = served[0];
    if (aServed === undefined) throw new Error('the server saw no stream');
    const aClosed = [once(a.stream, 'close'), once(aServed, 'close')];
    a.stream.destroy();
    await Promise.all(aClosed);
    const c = await open();
    expect(bAnswered).toBe(false);
    expect(c.stream.session).toBe(first);
    const second = await b;
    expect(second.stream.session).not.toBe(first);
    for (const answer of [c, second]) answer.stream.destroy();
  });

  it('lets the streams of a session that got a GOAWAY finish, and opens a fresh session for the next request', async () => {
    const streams: http2.ServerHttp2Stream[] = [];
    const server = await h2Server(100, (stream) => {
      stream.respond({ ':status': 200 });
      stream.write('a');
      streams.push(stream);
    });
    cleanups.push(server.close);
    const sessions = new Http2Sessions();
    cleanups.push(() => sessions.close());
    const origin = `http://127.0.0.1:${server.port}`;
    const first: Http2Answer = await sessions.request(origin, {}, '/watch', {}, undefined);
    const firstSession = first.stream.session;
    const [served] = streams;
    if (served?.session === undefined) throw new Error('the server saw no stream');
    served.session.goaway(http2.constants.NGHTTP2_NO_ERROR, served.id);
    await waitFor('the session to leave the pool', () => sessions.size === 0);
    served.end('b');
    let body = '';
    for await (const chunk of first.stream) body += chunk;
    expect(body).toBe('ab');
    const next = await sessions.request(origin, {}, '/watch', {}, undefined);
    expect(next.stream.session === firstSession).toBe(false); // (vitest cannot print a closed session)
    expect(sessions.size).toBe(1);
    next.stream.destroy();
  });
});
