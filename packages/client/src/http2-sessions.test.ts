import { once } from 'node:events';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@ctrlkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WatchStreamError } from './errors/watch-stream-error.js';
import {
  HTTP2_SESSION_WINDOW_BYTES,
  HTTP2_STREAM_WINDOW_BYTES,
  Http2Sessions,
} from './http2-sessions.js';
import { FreezingProxy } from './testing/freezing-proxy.js';

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
    const answer = await sessions.request(`http://127.0.0.1:${port}`, {}, '/watch', {}, undefined);
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
    const answer = await sessions.request(origin, {}, '/watch', {}, undefined);
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
    const again = await sessions.request(origin, {}, '/watch', {}, undefined);
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
    const answer = await sessions.request(`http://127.0.0.1:${port}`, {}, '/watch', {}, undefined);
    expect(answer.stream.session?.localSettings.initialWindowSize).toBe(HTTP2_STREAM_WINDOW_BYTES);
    expect(await sessionWindow).toBe(HTTP2_SESSION_WINDOW_BYTES);
    answer.stream.destroy();
  });
});
