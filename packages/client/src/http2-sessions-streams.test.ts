import { once } from 'node:events';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createCertificate } from '@ctrlkit/core/certificates';
import { waitFor } from '@ctrlkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Http2Answer, Http2Sessions } from './http2-sessions.js';

/** A TLS HTTP/2 server allowing `maxConcurrentStreams` streams per connection, whose answers send their head and then nothing (watches). */
async function limitedServer(maxConcurrentStreams: number) {
  const ca = await createCertificate({ usage: 'ca', commonName: 'test-ca' });
  const serving = await createCertificate(
    { usage: 'server', commonName: 'localhost', ipAddresses: ['127.0.0.1'] },
    ca,
  );
  const server = http2.createSecureServer({
    cert: serving.certPem,
    key: serving.keyPem,
    settings: { maxConcurrentStreams },
  });
  const perSession = new Map<http2.Http2Session, number>();
  server.on('stream', (stream) => {
    const { session } = stream;
    if (session) perSession.set(session, (perSession.get(session) ?? 0) + 1);
    stream.respond({ ':status': 200 });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    /** Stops the server, ending its connections (streams left open by a failed test included). */
    close: () => {
      for (const session of perSession.keys()) session.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tls: { ca: ca.certPem },
    perSession,
  };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('Http2Sessions beyond one connection', () => {
  it("starts every long-lived stream when they outnumber one connection's SETTINGS_MAX_CONCURRENT_STREAMS, on the fewest connections", async () => {
    const { close, origin, tls, perSession } = await limitedServer(3);
    cleanups.push(close);
    const sessions = new Http2Sessions();
    cleanups.push(() => sessions.close());
    const settled = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        timeLimited(sessions.request(origin, tls, `/watch/${i}`, {}, undefined), 5_000),
      ),
    );
    const answers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    expect(answers).toHaveLength(10);
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(sessions.size).toBe(4);
    expect([...perSession.values()].sort()).toEqual([1, 3, 3, 3]);
    for (const answer of answers) answer.stream.destroy();
  });

  it('places a new stream on the least-loaded connection with room, and closes an extra connection that stays idle', async () => {
    const { close, origin, tls } = await limitedServer(3);
    cleanups.push(close);
    const sessions = new Http2Sessions({
      readIdleTimeoutMs: 20_000,
      pingTimeoutMs: 15_000,
      idleTimeoutMs: 200,
    });
    cleanups.push(() => sessions.close());
    const open = (): Promise<Http2Answer> => sessions.request(origin, tls, '/watch', {}, undefined);
    const [a, b, c, d] = await Promise.all([open(), open(), open(), open()]);
    if (!a || !b || !c || !d) throw new Error('four answers expected');
    expect(sessions.size).toBe(2);
    const first = a.stream.session;
    const second = d.stream.session;
    expect([b.stream.session, c.stream.session]).toEqual([first, first]);
    expect(second).not.toBe(first);
    // b ends: the first connection has two streams and room, the second one: the next goes on the second.
    let bClosed = false;
    b.stream.once('close', () => {
      bClosed = true;
    });
    b.stream.destroy();
    await waitFor('b to close', () => bClosed);
    const e = await open();
    expect(e.stream.session).toBe(second);
    // d and e end: the second connection idles and is closed; the first keeps a and c.
    d.stream.destroy();
    e.stream.destroy();
    await waitFor('the idle extra connection to close', () => second?.closed === true, {
      timeoutMs: 3_000,
    });
    expect(sessions.size).toBe(1);
    expect(first?.closed).toBe(false);
    a.stream.destroy();
    c.stream.destroy();
  });
});

/** `promise`, or a rejection once `ms` passed without an answer (a stream queued forever). */
function timeLimited<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
