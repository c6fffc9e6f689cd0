import { retryAfterMs, statusCode } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type TestServer } from '../test/test-server.js';
import { createClient } from './client.js';
import type { ClientRequestInfo } from './transport.js';

let listener: TestServer | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

/** Lets sockets and timers on the real event loop move on. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

async function okServer() {
  listener = await serve((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url?.includes('watch=true') ? '' : '{"kind":"List","items":[]}');
    });
  });
  return listener;
}

describe('the client-side rate limit', () => {
  it('holds LISTs and other requests beyond the burst until the bucket refills at qps; a WATCH never waits', async () => {
    const { kubeConfig } = await okServer();
    const clock = new FakeClock();
    const sent: ClientRequestInfo[] = [];
    const waits: number[] = [];
    const client = createClient(kubeConfig, {
      qps: 1,
      burst: 2,
      clock,
      onRequest: (info) => void sent.push(info),
      metrics: {
        observe: () => {},
        observeRateLimiterWait: ({ seconds }) => void waits.push(seconds),
      },
    });
    const first = client.getList('/api/v1/pods', {}, 'application/json');
    const second = client.get('pods', 'a', { namespace: 'ns' });
    const third = client.list('configmaps');
    await Promise.all([first, second]);
    await client.watch('/api/v1/pods', {}, 'application/json', () => {});
    await settle();
    expect(sent.map((s) => s.verb)).toEqual(['list', 'get', 'watch']);
    clock.step(999);
    await settle();
    expect(sent).toHaveLength(3);
    clock.step(1);
    await third;
    expect(sent.map((s) => s.verb)).toEqual(['list', 'get', 'watch', 'list']);
    expect(waits).toEqual([0, 0, 1]);
  });

  it('does not send a request aborted while it waits for a token', async () => {
    const { kubeConfig } = await okServer();
    const clock = new FakeClock();
    const sent: ClientRequestInfo[] = [];
    const client = createClient(kubeConfig, {
      qps: 1,
      burst: 1,
      clock,
      onRequest: (info) => void sent.push(info),
    });
    await client.list('pods');
    const abort = new AbortController();
    const waiting = client.list('pods', { signal: abort.signal });
    await settle();
    abort.abort();
    await expect(waiting).rejects.toThrow();
    clock.step(5000);
    await settle();
    expect(sent).toHaveLength(1);
  });

  it('lets an unthrottled request (leader election) through a full bucket without taking a token', async () => {
    const { kubeConfig } = await okServer();
    const clock = new FakeClock();
    const sent: string[] = [];
    const waits: number[] = [];
    const client = createClient(kubeConfig, {
      qps: 1,
      burst: 1,
      clock,
      onRequest: (info) =>
        void sent.push(`${info.verb} ${info.url.split('?')[0]?.split('/').at(-1)}`),
      metrics: {
        observe: () => {},
        observeRateLimiterWait: ({ seconds }) => void waits.push(seconds),
      },
    });
    await client.list('pods');
    const lease = client.get('leases', 'l', { namespace: 'ns', unthrottled: true });
    const pods = client.list('pods', { unthrottled: true });
    const throttled = client.list('configmaps');
    await settle();
    expect(sent).toEqual(['list pods', 'get l', 'list pods']);
    await Promise.all([lease, pods]);
    clock.step(999);
    await settle();
    expect(sent).toHaveLength(3);
    clock.step(1);
    await settle();
    expect(sent.at(-1)).toBe('list configmaps');
    expect(sent).toHaveLength(4);
    await throttled;
    expect(waits).toEqual([0, 1]);
  });
});

describe('Retry-After', () => {
  it('sends a request answered 429 again after the Retry-After delay, through the bucket, counting each try', async () => {
    let calls = 0;
    listener = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        calls++;
        if (calls <= 2) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
          res.end(
            '{"kind":"Status","code":429,"reason":"TooManyRequests","details":{"retryAfterSeconds":2}}',
          );
          return;
        }
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{"metadata":{"name":"a"}}');
      });
    });
    const clock = new FakeClock();
    const codes: string[] = [];
    const client = createClient(listener.kubeConfig, {
      clock,
      metrics: { observe: ({ code }) => void codes.push(code) },
    });
    const created = client.create('configmaps', { metadata: { name: 'a', namespace: 'ns' } });
    await settle();
    expect(calls).toBe(1);
    clock.step(1999);
    await settle();
    expect(calls).toBe(1);
    clock.step(1);
    await settle();
    expect(calls).toBe(2);
    clock.step(2000);
    expect((await created).metadata?.name).toBe('a');
    expect(codes).toEqual(['429', '429', '201']);
  });

  it('gives up after maxRetries with the 429 as an ApiStatusError that says when to retry', async () => {
    let calls = 0;
    listener = await serve((req, res) => {
      calls++;
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"kind":"Status","code":429,"reason":"TooManyRequests","message":"slow down"}');
    });
    const clock = new FakeClock();
    const client = createClient(listener.kubeConfig, { clock, maxRetries: 2 });
    const outcome = client.get('pods', 'a', { namespace: 'ns' }).catch((error: unknown) => error);
    for (let i = 0; i < 3; i++) {
      await settle();
      clock.step(1000);
    }
    const error = await outcome;
    expect(calls).toBe(3);
    expect(statusCode(error)).toBe(429);
    expect(retryAfterMs(error)).toBe(1000);
  });

  it('retries a 5xx only when it carries Retry-After, and never with maxRetries 0', async () => {
    const answers = [
      [503, { 'retry-after': '1' }],
      [500, {}],
    ] as const;
    let calls = 0;
    listener = await serve((req, res) => {
      const [code, headers] = answers[Math.min(calls, answers.length - 1)] ?? [500, {}];
      calls++;
      req.resume();
      res.writeHead(code, { 'content-type': 'application/json', ...headers });
      res.end(`{"kind":"Status","code":${code}}`);
    });
    const clock = new FakeClock();
    const client = createClient(listener.kubeConfig, { clock });
    const outcome = client.get('pods', 'a', { namespace: 'ns' }).catch((error: unknown) => error);
    await settle();
    clock.step(1000);
    expect(statusCode(await outcome)).toBe(500);
    expect(calls).toBe(2);

    calls = 0;
    const never = createClient(listener.kubeConfig, { clock, maxRetries: 0 });
    expect(
      statusCode(await never.get('pods', 'a', { namespace: 'ns' }).catch((e: unknown) => e)),
    ).toBe(503);
    expect(calls).toBe(1);
  });
});
