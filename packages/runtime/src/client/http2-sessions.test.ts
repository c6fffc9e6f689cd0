import { once } from 'node:events';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@ctrlkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WatchStreamError } from '../informers/errors/watch-stream-error.js';
import { FreezingProxy } from '../testing/freezing-proxy.js';
import {
  HTTP2_SESSION_WINDOW_BYTES,
  HTTP2_STREAM_WINDOW_BYTES,
  Http2Sessions,
} from './http2-sessions.js';
import { StaleConnectionError } from './stale-connection-error.js';

const WATCH = { method: 'GET', path: '/watch', headers: {} } as const;

/** A cleartext HTTP/2 server answering each stream with `handler`. */
async function serve(
  handler: (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void,
): Promise<string> {
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    stream.on('error', () => {}); // a refused or reset stream is what these tests want
    handler(stream, headers);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The whole body of a stream. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

/** A cleartext HTTP/2 server whose answers send their head and then nothing (a quiet watch). */
async function quietServer(): Promise<{
  server: http2.Http2Server;
  port: number;
  pings: () => number;
}> {
  let pings = 0;
  const server = http2.createServer();
  server.on('session', (session) => session.on('ping', () => pings++));
  server.on('stream', (stream) => stream.respond({ ':status': 200 }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, pings: () => pings };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('Http2Sessions', () => {
  it('keeps a quiet, healthy stream open, pinging its session once per silent period', async () => {
    const { server, port, pings } = await quietServer();
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const sessions = new Http2Sessions({ readIdleTimeoutMs: 100, pingTimeoutMs: 100 });
    cleanups.push(() => sessions.close());
    const answer = await sessions.request(`http://127.0.0.1:${port}`, {}, WATCH);
    expect(answer.statusCode).toBe(200);
    let failed: unknown;
    answer.stream.on('error', (error) => {
      failed = error;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(failed).toBeUndefined();
    expect(answer.stream.destroyed).toBe(false);
    // About ten silent periods of 100 ms: pinged again after each answered ping.
    expect(pings()).toBeGreaterThanOrEqual(4);
    answer.stream.destroy();
  });

  it('fails the streams of a session whose ping goes unanswered (a half-open connection), and opens a fresh one', async () => {
    const { server, port } = await quietServer();
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const proxy = new FreezingProxy(port);
    await proxy.listen();
    cleanups.push(() => proxy.close());
    const sessions = new Http2Sessions({ readIdleTimeoutMs: 200, pingTimeoutMs: 200 });
    cleanups.push(() => sessions.close());
    const origin = `http://127.0.0.1:${proxy.port}`;
    const answer = await sessions.request(origin, {}, WATCH);
    let failed: unknown;
    answer.stream.on('error', (error) => {
      failed = error;
    });
    expect(proxy.freeze()).toBe(1);
    const frozenAt = performance.now();
    await waitFor('the stream to fail', () => failed !== undefined, { timeoutMs: 5_000 });
    const detectedMs = performance.now() - frozenAt;
    expect(WatchStreamError.isInstance(failed)).toBe(true);
    expect((failed as Error).message).toMatch(/no answer to an HTTP\/2 ping within 200 ms/);
    expect(detectedMs).toBeGreaterThanOrEqual(300);
    expect(detectedMs).toBeLessThan(2_000);
    // The next request goes over a new connection, which the proxy forwards.
    const again = await sessions.request(origin, {}, WATCH);
    expect(again.statusCode).toBe(200);
    again.stream.destroy();
  });

  it("offers the server Go's flow-control windows, so that a streaming list is not paced by window updates", async () => {
    const server = http2.createServer();
    const sessionWindow = new Promise<number>((resolve) =>
      server.on('stream', (stream) => {
        stream.respond({ ':status': 200 });
        // The session window opens with a WINDOW_UPDATE right after the connection preface.
        setTimeout(() => resolve(stream.session?.state.remoteWindowSize ?? 0), 100);
      }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const sessions = new Http2Sessions();
    cleanups.push(() => sessions.close());
    const { port } = server.address() as AddressInfo;
    const answer = await sessions.request(`http://127.0.0.1:${port}`, {}, WATCH);
    expect(answer.stream.session?.localSettings.initialWindowSize).toBe(HTTP2_STREAM_WINDOW_BYTES);
    expect(await sessionWindow).toBe(HTTP2_SESSION_WINDOW_BYTES);
    answer.stream.destroy();
  });

  it("sends a request's method, headers and body, and reads its answer", async () => {
    const origin = await serve(async (stream, headers) => {
      const body = await readAll(stream);
      stream.respond({ ':status': 201, 'content-type': 'text/plain' });
      stream.end(`${headers[':method']} ${headers[':path']} ${headers['x-test']} ${body}`);
    });
    const sessions = new Http2Sessions();
    cleanups.push(() => sessions.close());
    const answer = await sessions.request(
      origin,
      {},
      {
        method: 'PUT',
        path: '/api/v1/x?dryRun=All',
        headers: { 'x-test': 'yes' },
        body: Buffer.from('{"a":1}'),
      },
    );
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['content-type']).toBe('text/plain');
    expect(await readAll(answer.stream)).toBe('PUT /api/v1/x?dryRun=All yes {"a":1}');
  });

  it('rejects a stream the server refused with a StaleConnectionError that may be sent again whatever its method', async () => {
    const origin = await serve((stream) => stream.close(http2.constants.NGHTTP2_REFUSED_STREAM));
    const sessions = new Http2Sessions();
    cleanups.push(() => sessions.close());
    const failed = await sessions
      .request(origin, {}, { method: 'POST', path: '/x', headers: {}, body: Buffer.from('{}') })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failed).toBeInstanceOf(StaleConnectionError);
    expect((failed as StaleConnectionError).unprocessed).toBe(true);
  });

  it('rejects a request whose connected session is reset under it with a StaleConnectionError, not unprocessed', async () => {
    const origin = await serve((stream, headers) => {
      if (headers[':path'] === '/first') {
        stream.respond({ ':status': 200 });
        stream.end();
      } else stream.session?.socket.destroy(); // the connection dies with the request unanswered
    });
    const sessions = new Http2Sessions();
    cleanups.push(() => sessions.close());
    const first = await sessions.request(
      origin,
      {},
      { method: 'GET', path: '/first', headers: {} },
    );
    await readAll(first.stream);
    const failed = await sessions
      .request(origin, {}, { method: 'PUT', path: '/second', headers: {}, body: Buffer.from('{}') })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failed).toBeInstanceOf(StaleConnectionError);
    expect((failed as StaleConnectionError).unprocessed).toBe(false);
  });

  it('rejects a request on a fresh session that fails with the plain error (the server is down, not a stale connection)', async () => {
    const origin = await serve((stream) => stream.session?.socket.destroy());
    const sessions = new Http2Sessions();
    cleanups.push(() => sessions.close());
    const failed = await sessions.request(origin, {}, WATCH).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(StaleConnectionError);
  });

  it('destroys a stream whose head does not come within its idle timeout, with the error asked for', async () => {
    const origin = await serve(() => {}); // takes the request, never answers
    const sessions = new Http2Sessions();
    cleanups.push(() => sessions.close());
    const idle = new WatchStreamError('nothing received');
    const failed = await sessions
      .request(origin, {}, { ...WATCH, idleTimeout: { ms: 100, error: () => idle } })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failed).toBe(idle);
  });
});
