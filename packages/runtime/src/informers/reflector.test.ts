import { ApiStatusError, ResourceExpiredError } from '@ctrlkit/client';
import { noopLogger } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import type { KubernetesObject } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeListWatch } from '../testing/fake-list-watch.js';
import type { WatchEvent, WatchRequestOptions } from './list-watch.js';
import {
  DEFAULT_PAGE_SIZE,
  Reflector,
  type ReflectorSink,
  WATCH_TIMEOUT_GRACE_MS,
} from './reflector.js';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function cm(
  name: string,
  data: Record<string, string> = {},
): KubernetesObject & { data: Record<string, string> } {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name }, data };
}

class RecordingSink implements ReflectorSink<KubernetesObject> {
  readonly log: string[] = [];
  replace(objects: KubernetesObject[], rv: string) {
    this.log.push(`replace(${objects.map((o) => o.metadata?.name).join(',')})@${rv}`);
  }
  add(obj: KubernetesObject) {
    this.log.push(`add ${obj.metadata?.name}@${obj.metadata?.resourceVersion}`);
  }
  update(obj: KubernetesObject) {
    this.log.push(`update ${obj.metadata?.name}@${obj.metadata?.resourceVersion}`);
  }
  delete(obj: KubernetesObject) {
    this.log.push(`delete ${obj.metadata?.name}@${obj.metadata?.resourceVersion}`);
  }
}

let controller: AbortController;
afterEach(() => controller?.abort());

function start(
  lw: FakeListWatch,
  options: { pageSize?: number; mode?: 'list' | 'stream' | 'auto'; clock?: FakeClock } = {},
) {
  const sink = new RecordingSink();
  const clock = options.clock ?? new FakeClock();
  const reflector = new Reflector({
    listWatch: lw,
    sink,
    pageSize: options.pageSize,
    initialListMode: options.mode ?? 'list',
    clock,
    random: () => 0,
  });
  controller = new AbortController();
  const done = reflector.run(controller.signal);
  return { sink, reflector, clock, done };
}

describe('Reflector', () => {
  it('first lists at resourceVersion 0 with a limit of 500, which the watch cache answers in one page, then watches from its version', async () => {
    const lw = new FakeListWatch();
    for (let i = 0; i < 600; i++) lw.apply(cm(`c${String(i).padStart(3, '0')}`));
    const { sink, reflector } = start(lw);
    await flush();
    expect(lw.listCalls.map((c) => [c.resourceVersion, c.limit, c.continue])).toEqual([
      ['0', DEFAULT_PAGE_SIZE, undefined],
    ]);
    expect(lw.listCalls[0]?.resourceVersionMatch).toBeUndefined();
    expect(sink.log).toHaveLength(1);
    expect(sink.log[0]).toMatch(/^replace\(c000,.*,c599\)@601$/);
    expect(lw.watchCalls[0]).toMatchObject({ resourceVersion: '601', allowWatchBookmarks: true });
    expect(reflector.lastSyncResourceVersion).toBe('601');
  });

  it('with pageSize set and no watch cache pages the first list at 0 with continue tokens (no version on continue pages)', async () => {
    const lw = new FakeListWatch();
    lw.watchCache = false;
    for (let i = 0; i < 12; i++) lw.apply(cm(`c${String(i).padStart(2, '0')}`));
    const { sink, reflector } = start(lw, { pageSize: 5 });
    await flush();
    expect(lw.listCalls.map((c) => [c.resourceVersion, c.limit, c.continue])).toEqual([
      ['0', 5, undefined],
      [undefined, 5, '13:5'],
      [undefined, 5, '13:10'],
    ]);
    expect(sink.log).toHaveLength(1);
    expect(sink.log[0]).toMatch(/^replace\(c00,.*,c11\)@13$/);
    expect(lw.watchCalls).toHaveLength(1);
    expect(lw.watchCalls[0]).toMatchObject({ resourceVersion: '13', allowWatchBookmarks: true });
    expect(reflector.lastSyncResourceVersion).toBe('13');
  });

  it('when the first list at 0 came back in pages (no watch cache), pages its relists from a version too (client-go paginatedResult)', async () => {
    const lw = new FakeListWatch();
    lw.watchCache = false;
    for (let i = 0; i < DEFAULT_PAGE_SIZE + 1; i++) lw.apply(cm(`c${String(i).padStart(3, '0')}`));
    const { sink } = start(lw);
    await flush();
    lw.sendError({ code: 410, reason: 'Expired', message: 'too old resource version' });
    await flush();
    expect(lw.listCalls.map((c) => [c.resourceVersion, c.limit, c.continue])).toEqual([
      ['0', DEFAULT_PAGE_SIZE, undefined],
      [undefined, DEFAULT_PAGE_SIZE, '502:500'],
      ['502', DEFAULT_PAGE_SIZE, undefined],
      [undefined, DEFAULT_PAGE_SIZE, '502:500'],
    ]);
    expect(sink.log).toHaveLength(2);
  });

  it('with a watch cache relists from a version in one request (no limit), so the cache serves it', async () => {
    const lw = new FakeListWatch();
    for (let i = 0; i < DEFAULT_PAGE_SIZE + 1; i++) lw.apply(cm(`c${String(i).padStart(3, '0')}`));
    start(lw);
    await flush();
    lw.sendError({ code: 410, reason: 'Expired', message: 'too old resource version' });
    await flush();
    expect(lw.listCalls.map((c) => [c.resourceVersion, c.limit, c.continue])).toEqual([
      ['0', DEFAULT_PAGE_SIZE, undefined],
      ['502', undefined, undefined],
    ]);
  });

  it('randomizes the watch timeout between 5 and 10 minutes like client-go', async () => {
    const lw = new FakeListWatch();
    const sink = new RecordingSink();
    controller = new AbortController();
    const reflector = new Reflector({
      listWatch: lw,
      sink,
      initialListMode: 'list',
      random: () => 0.5,
    });
    void reflector.run(controller.signal);
    await flush();
    expect(lw.watchCalls[0]?.timeoutSeconds).toBe(450);
  });

  it('gives every watch an idle timeout past its server timeout, so a quiet watch is never taken for a half-open one', async () => {
    for (const random of [0, 0.5, 0.999]) {
      const lw = new FakeListWatch();
      controller = new AbortController();
      const reflector = new Reflector({
        listWatch: lw,
        sink: new RecordingSink(),
        initialListMode: 'list',
        random: () => random,
      });
      void reflector.run(controller.signal);
      await flush();
      const call = lw.watchCalls[0];
      expect(call?.idleTimeoutMs).toBe((call?.timeoutSeconds ?? 0) * 1000 + WATCH_TIMEOUT_GRACE_MS);
      controller.abort();
    }
    expect(WATCH_TIMEOUT_GRACE_MS).toBe(30_000);
  });

  it('resumes a quiet watch that the server ended at its timeout from the same version: no relist, no warning, no backoff', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const clock = new FakeClock();
    const warnings: string[] = [];
    const logger = {
      ...noopLogger,
      warn: (_fields: unknown, message?: string) => warnings.push(String(message)),
      child: () => logger,
    };
    controller = new AbortController();
    const sink = new RecordingSink();
    const reflector = new Reflector({
      listWatch: lw,
      sink,
      initialListMode: 'list',
      clock,
      logger,
      random: () => 0,
    });
    void reflector.run(controller.signal);
    await flush();
    for (let round = 0; round < 3; round++) {
      // Nothing at all for the whole server timeout (no event, no bookmark), then the end.
      clock.step((lw.watchCalls.at(-1)?.timeoutSeconds ?? 0) * 1000);
      lw.closeWatches();
      await flush();
      await flush();
    }
    expect(lw.watchCalls).toHaveLength(4);
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['2', '2', '2', '2']);
    expect(lw.listCalls).toHaveLength(1);
    expect(warnings).toEqual([]);
    expect(sink.log).toEqual(['replace(a)@2']);
  });

  it('reports its health: listing, then watching (no unwatched time), backing off since a failure, watching again', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const clock = new FakeClock();
    const { reflector } = start(lw, { clock });
    const t0 = clock.now();
    expect(reflector.health()).toEqual({
      state: 'listing',
      lastEventAtMs: undefined,
      unwatchedSinceMs: t0,
    });
    await flush();
    expect(reflector.health()).toEqual({
      state: 'watching',
      lastEventAtMs: t0,
      unwatchedSinceMs: undefined,
    });
    clock.step(5_000);
    lw.apply(cm('b'));
    await flush();
    expect(reflector.health().lastEventAtMs).toBe(t0 + 5_000);
    clock.step(5_000);
    lw.failNextWatch(new Error('connection refused'));
    lw.breakWatches();
    await flush();
    await flush();
    expect(reflector.health()).toEqual({
      state: 'backing-off',
      lastEventAtMs: t0 + 5_000,
      unwatchedSinceMs: t0 + 10_000,
    });
    // Still failing after the first backoff: the unwatched time keeps counting from the first failure.
    clock.step(60_000);
    await flush();
    await flush();
    expect(reflector.health()).toMatchObject({
      state: 'backing-off',
      unwatchedSinceMs: t0 + 10_000,
    });
    clock.step(60_000);
    await flush();
    await flush();
    expect(reflector.health()).toMatchObject({ state: 'watching', unwatchedSinceMs: undefined });
    expect(lw.listCalls).toHaveLength(1);
  });

  it('delivers watch events in order and resumes a dropped watch from the last version seen, bookmarks included', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { sink } = start(lw);
    await flush();
    lw.apply(cm('b'));
    lw.apply(cm('a', { x: '1' }));
    lw.bookmark();
    lw.closeWatches();
    await flush();
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['2', '4']);
    lw.apply(cm('c'));
    lw.breakWatches();
    lw.remove('ns', 'b');
    // A broken connection backs off; the fake clock stands still, so the resumed watch waits.
    expect(lw.watchCalls).toHaveLength(2);
    expect(sink.log).toEqual(['replace(a)@2', 'add b@3', 'update a@4', 'add c@5']);
  });

  it('resumes after a break once the backoff has passed, replaying exactly what it missed', async () => {
    const lw = new FakeListWatch();
    const clock = new FakeClock();
    const { sink } = start(lw, { clock });
    await flush();
    lw.apply(cm('a'));
    lw.breakWatches();
    await flush();
    lw.apply(cm('b'));
    lw.remove('ns', 'a');
    clock.step(800);
    await flush();
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['1', '2']);
    expect(sink.log).toEqual(['replace()@1', 'add a@2', 'add b@3', 'delete a@4']);
    expect(lw.listCalls).toHaveLength(1);
  });

  it('lists again on 410 Gone from a watch request, from the last version it saw, in one request (the watch cache serves it)', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { sink, clock } = start(lw);
    await flush();
    lw.breakWatches();
    await flush();
    lw.apply(cm('b'));
    lw.compact();
    clock.step(800);
    await flush();
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['2', '2', '3']);
    expect(lw.listCalls.map((c) => [c.resourceVersion, c.limit])).toEqual([
      ['0', DEFAULT_PAGE_SIZE],
      ['2', undefined],
    ]);
    expect(sink.log).toEqual(['replace(a)@2', 'replace(a,b)@3']);
  });

  it('lists again at once from the last version on a watch ERROR event with code 410 (Expired)', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { sink } = start(lw);
    await flush();
    lw.sendError({ code: 410, reason: 'Expired', message: 'too old resource version' });
    await flush();
    expect(lw.listCalls).toHaveLength(2);
    expect(lw.listCalls[1]).toMatchObject({ resourceVersion: '2', limit: undefined });
    expect(sink.log).toEqual(['replace(a)@2', 'replace(a)@2']);
    expect(lw.watchCalls).toHaveLength(2);
  });

  it('backs off on list errors: 800 ms, then 1.6 s, and never gives up', async () => {
    const lw = new FakeListWatch();
    const clock = new FakeClock();
    const error = new ApiStatusError(500, { reason: 'InternalError' }, 'LIST');
    lw.failNextList(error);
    lw.failNextList(error);
    const { sink } = start(lw, { clock });
    await flush();
    expect(lw.listCalls).toHaveLength(1);
    clock.step(799);
    await flush();
    expect(lw.listCalls).toHaveLength(1);
    clock.step(1);
    await flush();
    expect(lw.listCalls).toHaveLength(2);
    clock.step(1599);
    await flush();
    expect(lw.listCalls).toHaveLength(2);
    clock.step(1);
    await flush();
    expect(lw.listCalls).toHaveLength(3);
    expect(sink.log).toEqual(['replace()@1']);
  });

  it('logs a refused list (403: RBAC) as an error naming the permission, a 500 as a warning, and retries both with backoff', async () => {
    const lw = new FakeListWatch();
    const clock = new FakeClock();
    const logged: Array<[string, string, string]> = [];
    const logger = {
      ...noopLogger,
      warn: (fields: { error?: string }, message?: string) =>
        logged.push(['warn', String(message), String(fields.error)]),
      error: (fields: { error?: string }, message?: string) =>
        logged.push(['error', String(message), String(fields.error)]),
      child: () => logger,
    };
    const forbidden =
      'configmaps is forbidden: User "system:serviceaccount:ops:app" cannot list resource "configmaps" in API group "" at the cluster scope';
    lw.failNextList(
      new ApiStatusError(
        403,
        { reason: 'Forbidden', message: forbidden },
        'GET /api/v1/configmaps',
      ),
    );
    lw.failNextList(new ApiStatusError(500, { reason: 'InternalError' }, 'LIST'));
    controller = new AbortController();
    const reflector = new Reflector({
      listWatch: lw,
      sink: new RecordingSink(),
      initialListMode: 'list',
      clock,
      random: () => 0,
      logger,
    });
    void reflector.run(controller.signal);
    await flush();
    expect(logged).toEqual([
      ['error', 'list failed; retrying with backoff', expect.stringContaining(forbidden)],
    ]);
    clock.step(800);
    await flush();
    expect(logged[1]).toEqual(['warn', 'list failed; retrying with backoff', expect.any(String)]);
    clock.step(1600);
    await flush();
    expect(lw.listCalls).toHaveLength(3);
  });

  it('after a watch ERROR event other than 410, backs off, then lists from the last version (as client-go) and watches on', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { sink, clock } = start(lw);
    await flush();
    lw.sendError({ code: 500, reason: 'InternalError', message: 'etcd is sad' });
    await flush();
    lw.apply(cm('b'));
    expect(lw.watchCalls).toHaveLength(1);
    clock.step(800);
    await flush();
    expect(lw.listCalls.map((c) => c.resourceVersion)).toEqual(['0', '2']);
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['2', '3']);
    expect(sink.log).toEqual(['replace(a)@2', 'replace(a,b)@3']);
  });

  it('treats a very short empty watch as a failure and backs off', async () => {
    const lw = new FakeListWatch();
    const clock = new FakeClock();
    start(lw, { clock });
    await flush();
    lw.closeWatches();
    await flush();
    expect(lw.watchCalls).toHaveLength(1);
    clock.step(800);
    await flush();
    expect(lw.watchCalls).toHaveLength(2);
  });

  it('uses a streaming list when the server serves it, and keeps watching on the same stream', async () => {
    const lw = new FakeListWatch();
    lw.supportsStreaming = true;
    lw.apply(cm('a'));
    lw.apply(cm('b'));
    const { sink } = start(lw, { mode: 'auto' });
    await flush();
    expect(lw.listCalls).toHaveLength(0);
    expect(lw.watchCalls[0]).toMatchObject({
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
    });
    lw.apply(cm('c'));
    expect(sink.log).toEqual(['replace(a,b)@3', 'add c@4']);
    expect(lw.watchCalls).toHaveLength(1);
  });

  it('is watching once a streaming list delivered its state, though no event follows it', async () => {
    const lw = new FakeListWatch();
    lw.supportsStreaming = true;
    lw.apply(cm('a'));
    const { sink, reflector } = start(lw, { mode: 'stream' });
    await flush();
    expect(sink.log).toEqual(['replace(a)@2']);
    expect(reflector.health()).toMatchObject({ state: 'watching', unwatchedSinceMs: undefined });
  });

  it("falls back to LIST for the attempt when the server refuses a streaming list ('auto'), and streams again at the next relist", async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { sink, reflector } = start(lw, { mode: 'auto' });
    await flush();
    expect(reflector.initialListMode).toBe('auto');
    expect(lw.listCalls.map((c) => c.resourceVersion)).toEqual(['0']);
    expect(sink.log).toEqual(['replace(a)@2']);
    expect(lw.watchCalls.map((c) => Boolean(c.sendInitialEvents))).toEqual([true, false]);
    lw.supportsStreaming = true;
    lw.apply(cm('b'));
    lw.sendError({ code: 410, reason: 'Expired', message: 'too old resource version' });
    await flush();
    expect(lw.listCalls).toHaveLength(1);
    expect(lw.watchCalls[2]).toMatchObject({
      sendInitialEvents: true,
      resourceVersion: '3',
      resourceVersionMatch: 'NotOlderThan',
    });
    expect(sink.log).toEqual(['replace(a)@2', 'add b@3', 'replace(a,b)@3']);
  });

  it("in 'stream' mode retries a refused streaming list with backoff and never lists", async () => {
    const lw = new FakeListWatch();
    const { sink, clock } = start(lw, { mode: 'stream' });
    await flush();
    clock.step(800);
    await flush();
    expect(lw.listCalls).toHaveLength(0);
    expect(lw.watchCalls.map((c) => [c.sendInitialEvents, c.resourceVersion])).toEqual([
      [true, ''],
      [true, ''],
    ]);
    expect(sink.log).toEqual([]);
  });

  it('first streams at "" (the latest), and a relist streams from the last version; a too-large version streams from "" at once', async () => {
    const lw = new FakeListWatch();
    lw.supportsStreaming = true;
    lw.apply(cm('a'));
    lw.apply(cm('b'));
    const { sink, reflector, clock } = start(lw, { mode: 'stream' });
    await flush();
    expect(lw.watchCalls[0]).toMatchObject({ resourceVersion: '', sendInitialEvents: true });
    lw.sendError({ code: 500, reason: 'InternalError', message: 'boom' });
    await flush();
    clock.step(800);
    await flush();
    expect(lw.watchCalls[1]).toMatchObject({
      resourceVersion: '3',
      resourceVersionMatch: 'NotOlderThan',
      sendInitialEvents: true,
    });
    lw.restore(2);
    lw.sendError({ code: 410, reason: 'Expired', message: 'too old resource version' });
    await flush();
    expect(lw.watchCalls.slice(2).map((c) => [c.resourceVersion, c.sendInitialEvents])).toEqual([
      ['3', true],
      ['', true],
    ]);
    expect(lw.listCalls).toHaveLength(0);
    expect(sink.log).toEqual(['replace(a,b)@3', 'replace(a,b)@3', 'replace(a,b)@2']);
    expect(reflector.lastSyncResourceVersion).toBe('2');
  });

  it('does not take a version from the initial events of a stream that broke before its end bookmark', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    lw.apply(cm('b'));
    const reflectorLw = {
      list: lw.list.bind(lw),
      watch: (options: WatchRequestOptions, onEvent: (event: WatchEvent) => void) =>
        options.sendInitialEvents
          ? (async () => {
              onEvent({
                type: 'ADDED',
                object: { ...cm('b'), metadata: { name: 'b', resourceVersion: '99' } },
              });
              throw new Error('connection reset');
            })()
          : lw.watch(options, onEvent),
    };
    controller = new AbortController();
    const reflector = new Reflector({
      listWatch: reflectorLw,
      sink: new RecordingSink(),
      initialListMode: 'auto',
      random: () => 0,
    });
    void reflector.run(controller.signal);
    await flush();
    // As client-go: a stream that broke under way is not refused: no LIST, and the next
    // stream (after the backoff) asks for the latest state, not the version of an event.
    expect(lw.listCalls).toHaveLength(0);
    expect(reflector.lastSyncResourceVersion).toBe('');
  });

  it("in 'auto' mode backs off and streams again after 429 or a refused connection, without a LIST (client-go's isWatchErrorRetriable)", async () => {
    const lw = new FakeListWatch();
    lw.supportsStreaming = true;
    lw.apply(cm('a'));
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), {
      code: 'ECONNREFUSED',
    });
    lw.failNextWatch(new ApiStatusError(429, { reason: 'TooManyRequests' }, 'WATCH'));
    lw.failNextWatch(new Error('request failed', { cause: refused }));
    const { sink, clock } = start(lw, { mode: 'auto' });
    await flush();
    expect(lw.watchCalls).toHaveLength(1);
    clock.step(800);
    await flush();
    expect(lw.watchCalls).toHaveLength(2);
    clock.step(1_600);
    await flush();
    expect(lw.listCalls).toHaveLength(0);
    expect(lw.watchCalls.map((c) => c.sendInitialEvents)).toEqual([true, true, true]);
    expect(sink.log).toEqual(['replace(a)@2']);
  });

  it("in 'auto' mode streams again at once, without a LIST, when the apiserver's watch cache did not catch up with a stream from \"\" in time (504 too large), as client-go", async () => {
    const lw = new FakeListWatch();
    lw.supportsStreaming = true;
    lw.apply(cm('a'));
    lw.failNextWatch(
      new ApiStatusError(
        504,
        {
          reason: 'Timeout',
          message: 'Too large resource version: 7, current: 6',
          details: { causes: [{ reason: 'ResourceVersionTooLarge' }] },
        },
        'WATCH',
      ),
    );
    const { sink } = start(lw, { mode: 'auto' });
    await flush();
    expect(lw.listCalls).toHaveLength(0);
    expect(lw.watchCalls.map((c) => [c.sendInitialEvents, c.resourceVersion])).toEqual([
      [true, ''],
      [true, ''],
    ]);
    expect(sink.log).toEqual(['replace(a)@2']);
  });

  it("in 'auto' mode falls back to a LIST when the stream cannot open (403, a network error before it opened)", async () => {
    for (const failure of [
      new ApiStatusError(403, { reason: 'Forbidden', message: 'cannot watch' }, 'WATCH'),
      Object.assign(new Error('getaddrinfo ENOTFOUND apiserver'), { code: 'ENOTFOUND' }),
    ]) {
      const lw = new FakeListWatch();
      lw.supportsStreaming = true;
      lw.apply(cm('a'));
      lw.failNextWatch(failure);
      const { sink } = start(lw, { mode: 'auto' });
      await flush();
      expect(lw.listCalls.map((c) => c.resourceVersion)).toEqual(['0']);
      expect(sink.log).toEqual(['replace(a)@2']);
      controller.abort();
    }
  });

  it("in 'auto' mode streams again, without a LIST, when a stream ends under way before its bookmark (as client-go)", async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    let streams = 0;
    const clock = new FakeClock();
    const reflectorLw = {
      list: lw.list.bind(lw),
      watch: (options: WatchRequestOptions, onEvent: (event: WatchEvent) => void) => {
        if (!options.sendInitialEvents) return lw.watch(options, onEvent);
        streams++;
        if (streams > 1) {
          lw.supportsStreaming = true;
          return lw.watch(options, onEvent);
        }
        options.onOpen?.();
        onEvent({ type: 'ADDED', object: { ...cm('a'), metadata: { name: 'a' } } });
        return Promise.resolve();
      },
    };
    controller = new AbortController();
    const sink = new RecordingSink();
    const reflector = new Reflector({
      listWatch: reflectorLw,
      sink,
      initialListMode: 'auto',
      clock,
      random: () => 0,
    });
    void reflector.run(controller.signal);
    await flush();
    clock.step(800);
    await flush();
    expect(streams).toBe(2);
    expect(lw.listCalls).toHaveLength(0);
    expect(sink.log).toEqual(['replace(a)@2']);
  });

  it('relists at "" (a consistent read, in pages) when the last version is answered 410, then from versions again', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { sink, clock } = start(lw);
    await flush();
    lw.failNextList(new ResourceExpiredError('too old resource version: 2', '2'));
    lw.sendError({ code: 410, reason: 'Expired', message: 'too old resource version' });
    await flush();
    expect(lw.listCalls.map((c) => [c.resourceVersion, c.limit])).toEqual([
      ['0', DEFAULT_PAGE_SIZE],
      ['2', undefined],
      ['', DEFAULT_PAGE_SIZE],
    ]);
    expect(sink.log).toEqual(['replace(a)@2', 'replace(a)@2']);
    lw.apply(cm('b'));
    lw.sendError({ code: 500, reason: 'InternalError', message: 'boom' });
    await flush();
    clock.step(800);
    await flush();
    expect(lw.listCalls.at(-1)).toMatchObject({ resourceVersion: '3', limit: undefined });
  });

  it('relists at "" when the last version is answered 504 "too large resource version" (etcd restored from a backup)', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    lw.apply(cm('b'));
    const { sink, clock, reflector } = start(lw);
    await flush();
    lw.restore(2);
    lw.breakWatches();
    await flush();
    clock.step(800);
    await flush();
    // The watch from 3 is refused with 504; the relist from 3 too; then the latest state.
    expect(lw.watchCalls.map((c) => c.resourceVersion)).toEqual(['3', '3']);
    clock.step(1600);
    await flush();
    expect(lw.listCalls.map((c) => c.resourceVersion)).toEqual(['0', '3', '']);
    expect(sink.log.at(-1)).toBe('replace(a,b)@2');
    expect(reflector.lastSyncResourceVersion).toBe('2');
    expect(lw.watchCalls.at(-1)?.resourceVersion).toBe('2');
  });

  it('lists everything in one request at the same version when a continue token expires mid-way (client-go pager)', async () => {
    const lw = new FakeListWatch();
    lw.watchCache = false;
    for (let i = 0; i < 5; i++) lw.apply(cm(`c${i}`));
    lw.beforeList = (options) => {
      if (options.continue === '6:4') lw.compact();
    };
    const { sink } = start(lw, { pageSize: 2 });
    await flush();
    expect(lw.listCalls.map((c) => [c.resourceVersion, c.limit, c.continue])).toEqual([
      ['0', 2, undefined],
      [undefined, 2, '6:2'],
      [undefined, 2, '6:4'],
      ['0', undefined, undefined],
    ]);
    expect(sink.log).toEqual(['replace(c0,c1,c2,c3,c4)@6']);
  });

  it('stops when the signal aborts and can be awaited', async () => {
    const lw = new FakeListWatch();
    const { done } = start(lw);
    await flush();
    controller.abort();
    await done;
    expect(lw.openWatches).toBe(0);
  });

  it('rejects invalid options naming the field', () => {
    const lw = new FakeListWatch();
    const sink = new RecordingSink();
    expect(() => new Reflector({ listWatch: lw, sink, pageSize: -1 })).toThrow(/pageSize/);
    expect(() => new Reflector({ listWatch: lw, sink, initialListMode: 'x' as 'list' })).toThrow(
      /initialListMode/,
    );
    expect(() => new Reflector({ listWatch: lw, sink, minWatchTimeoutMs: 10 })).toThrow(
      /minWatchTimeoutMs/,
    );
    expect(() => new Reflector({ listWatch: {} as FakeListWatch, sink })).toThrow(/listWatch/);
  });
});
