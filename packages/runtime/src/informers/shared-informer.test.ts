import type { KubeObject } from '@ctrlkit/client';
import { FakeClock } from '@ctrlkit/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeListWatch } from '../testing/fake-list-watch.js';
import { DeletedFinalStateUnknown } from './key-func.js';
import { newLister } from './lister.js';
import {
  type ResourceEventHandler,
  SharedIndexInformer,
  waitForCacheSync,
} from './shared-informer.js';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function cm(name: string, labels: Record<string, string> = {}, namespace = 'ns'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      namespace,
      name,
      labels,
      managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
    },
  };
}

function recorder(log: string[], prefix = '') {
  return {
    onAdd: (obj, initial) =>
      log.push(`${prefix}add ${obj.metadata?.name}${initial ? ' (initial)' : ''}`),
    onUpdate: (old, obj) =>
      log.push(`${prefix}update ${obj.metadata?.name}${old === obj ? ' (resync)' : ''}`),
    onDelete: (obj) =>
      log.push(
        DeletedFinalStateUnknown.isInstance(obj)
          ? `${prefix}delete tombstone ${obj.key}`
          : `${prefix}delete ${(obj as KubeObject).metadata?.name}`,
      ),
  } satisfies ResourceEventHandler<KubeObject>;
}

let controller: AbortController;

/** Waits for the sync and for the watch that follows it to open. */
async function synced(informer: SharedIndexInformer): Promise<void> {
  await informer.whenSynced();
  await flush();
}
afterEach(() => controller?.abort());

function startInformer(
  lw: FakeListWatch,
  options: { resyncPeriodMs?: number; clock?: FakeClock } = {},
) {
  const clock = options.clock ?? new FakeClock();
  const informer = new SharedIndexInformer({
    listWatch: lw,
    initialListMode: 'list',
    clock,
    random: () => 0,
    resyncPeriodMs: options.resyncPeriodMs,
  });
  controller = new AbortController();
  return { informer, clock, run: () => informer.run(controller.signal) };
}

describe('SharedIndexInformer', () => {
  it('delivers the initial list as adds with isInInitialList, then watch events, and syncs', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { informer, run } = startInformer(lw);
    const log: string[] = [];
    const registration = informer.addEventHandler(recorder(log));
    expect(informer.hasSynced()).toBe(false);
    void run();
    expect(await informer.whenSynced()).toBe(true);
    expect(registration.hasSynced()).toBe(true);
    await flush();
    lw.apply(cm('b'));
    lw.apply(cm('a', { v: '2' }));
    lw.remove('ns', 'b');
    expect(log).toEqual(['add a (initial)', 'add b', 'update a', 'delete b']);
    expect(informer.indexer.listKeys()).toEqual(['ns/a']);
  });

  it('keys each listed or watched object once (the key goes with it into the cache)', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    lw.apply(cm('b'));
    const { informer, run } = startInformer(lw);
    const keyFunc = vi.spyOn(informer.indexer, 'keyFunc');
    void run();
    await synced(informer);
    expect(keyFunc).toHaveBeenCalledTimes(2);
    lw.apply(cm('c'));
    lw.apply(cm('a', { v: '2' }));
    expect(keyFunc).toHaveBeenCalledTimes(4);
    expect(informer.indexer.listKeys().sort()).toEqual(['ns/a', 'ns/b', 'ns/c']);
    expect(informer.indexer.byIndex('namespace', 'ns')).toHaveLength(3);
  });

  it('drops managedFields before caching by default', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { informer, run } = startInformer(lw);
    void run();
    await synced(informer);
    lw.apply(cm('b'));
    expect(informer.indexer.getByKey('ns/a')?.metadata?.managedFields).toBeUndefined();
    expect(informer.indexer.getByKey('ns/b')?.metadata?.managedFields).toBeUndefined();
    expect(informer.indexer.getByKey('ns/a')?.kind).toBe('ConfigMap');
  });

  it('keeps managedFields with transform: null', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const informer = new SharedIndexInformer({
      listWatch: lw,
      transform: null,
      initialListMode: 'list',
    });
    controller = new AbortController();
    void informer.run(controller.signal);
    await synced(informer);
    expect(informer.indexer.getByKey('ns/a')?.metadata?.managedFields).toHaveLength(1);
  });

  it('shares one list and one watch among handlers', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { informer, run } = startInformer(lw);
    const one: string[] = [];
    const two: string[] = [];
    informer.addEventHandler(recorder(one));
    informer.addEventHandler(recorder(two));
    void run();
    await synced(informer);
    lw.apply(cm('b'));
    expect(one).toEqual(two);
    expect(lw.listCalls).toHaveLength(1);
    expect(lw.watchCalls).toHaveLength(1);
  });

  it('gives a handler added late synthetic adds for the current contents, then live events', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    lw.apply(cm('b'));
    const { informer, run } = startInformer(lw);
    void run();
    await synced(informer);
    const log: string[] = [];
    const registration = informer.addEventHandler(recorder(log));
    expect(registration.hasSynced()).toBe(true);
    lw.apply(cm('c'));
    expect(log.sort()).toEqual(['add a', 'add b', 'add c']);
  });

  it('after a relist (410), delivers tombstones for vanished objects and skips unchanged ones', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('keep'));
    lw.apply(cm('change'));
    lw.apply(cm('vanish'));
    const { informer, run, clock } = startInformer(lw);
    const log: string[] = [];
    informer.addEventHandler(recorder(log));
    void run();
    await synced(informer);
    log.length = 0;
    lw.breakWatches();
    await flush();
    lw.remove('ns', 'vanish');
    lw.apply(cm('change', { v: '2' }));
    lw.apply(cm('new'));
    lw.compact();
    clock.step(800);
    await flush();
    expect(log).toEqual(['delete tombstone ns/vanish', 'update change', 'add new']);
    expect(informer.indexer.listKeys().sort()).toEqual(['ns/change', 'ns/keep', 'ns/new']);
  });

  it('tombstones carry the key and the last known state of the object', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('vanish', { last: 'state' }));
    const { informer, run, clock } = startInformer(lw);
    const deleted: unknown[] = [];
    informer.addEventHandler({ onDelete: (obj) => deleted.push(obj) });
    void run();
    await synced(informer);
    lw.closeWatches();
    lw.remove('ns', 'vanish');
    lw.compact();
    await flush();
    clock.step(800); // a watch closed at once without events counts as a failure
    await flush();
    expect(deleted).toHaveLength(1);
    const tombstone = deleted[0] as DeletedFinalStateUnknown;
    expect(DeletedFinalStateUnknown.isInstance(tombstone)).toBe(true);
    expect(tombstone.key).toBe('ns/vanish');
    expect(tombstone.obj.metadata?.labels).toEqual({ last: 'state' });
  });

  it('resyncs every resyncPeriodMs with onUpdate(obj, obj) on the fake clock', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    lw.apply(cm('b'));
    const { informer, run, clock } = startInformer(lw, { resyncPeriodMs: 30_000 });
    const log: string[] = [];
    informer.addEventHandler(recorder(log));
    void run();
    await synced(informer);
    log.length = 0;
    clock.step(29_999);
    expect(log).toEqual([]);
    clock.step(1);
    expect(log.sort()).toEqual(['update a (resync)', 'update b (resync)']);
    clock.step(30_000);
    expect(log).toHaveLength(4);
  });

  it('honours a per-handler resync period, raised to the 1 s minimum', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { informer, run, clock } = startInformer(lw);
    const fast: string[] = [];
    const slow: string[] = [];
    const none: string[] = [];
    informer.addEventHandler(recorder(fast), { resyncPeriodMs: 10 });
    informer.addEventHandler(recorder(slow), { resyncPeriodMs: 5_000 });
    informer.addEventHandler(recorder(none));
    void run();
    await synced(informer);
    clock.step(5_000);
    expect(fast.filter((l) => l.includes('resync'))).toHaveLength(5);
    expect(slow.filter((l) => l.includes('resync'))).toHaveLength(1);
    expect(none.filter((l) => l.includes('resync'))).toHaveLength(0);
  });

  it('stops resyncing a removed handler and delivers nothing more to it', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { informer, run, clock } = startInformer(lw, { resyncPeriodMs: 1_000 });
    const log: string[] = [];
    const registration = informer.addEventHandler(recorder(log));
    void run();
    await synced(informer);
    registration.remove();
    expect(registration.hasSynced()).toBe(false);
    clock.step(5_000);
    lw.apply(cm('b'));
    expect(log).toEqual(['add a (initial)']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('isolates a throwing handler from the others', async () => {
    const lw = new FakeListWatch();
    const errors: object[] = [];
    const informer = new SharedIndexInformer({
      listWatch: lw,
      initialListMode: 'list',
      logger: { debug() {}, info() {}, warn() {}, error: (context) => errors.push(context) },
    });
    const log: string[] = [];
    informer.addEventHandler({
      onAdd() {
        throw new Error('boom');
      },
    });
    informer.addEventHandler(recorder(log));
    controller = new AbortController();
    void informer.run(controller.signal);
    await synced(informer);
    lw.apply(cm('a'));
    expect(log).toEqual(['add a']);
    expect(errors).toEqual([expect.objectContaining({ callback: 'onAdd', error: 'boom' })]);
  });

  it('skips (and logs) an object without a name, and keeps an object whose transform threw', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const errors: string[] = [];
    const informer = new SharedIndexInformer({
      listWatch: lw,
      initialListMode: 'list',
      transform: (obj) => {
        if (obj.metadata?.name === 'bad') throw new Error('cannot transform');
        return obj;
      },
      logger: {
        debug() {},
        info() {},
        warn() {},
        error: (_context, message) => errors.push(message ?? ''),
      },
    });
    const log: string[] = [];
    informer.addEventHandler(recorder(log));
    controller = new AbortController();
    void informer.run(controller.signal);
    await synced(informer);
    informer.add({ metadata: {} });
    lw.apply(cm('bad'));
    lw.apply(cm('b'));
    expect(log).toEqual(['add a (initial)', 'add bad', 'add b']);
    expect(errors).toEqual([
      'an object without a key was skipped',
      'transform threw; the object is kept as received',
    ]);
    expect(lw.watchCalls).toHaveLength(1);
  });

  it('waitForCacheSync resolves true when all informers synced, false on abort', async () => {
    const synced = new FakeListWatch();
    const { informer, run } = startInformer(synced);
    void run();
    expect(await waitForCacheSync(new AbortController().signal, informer)).toBe(true);
    const never = new SharedIndexInformer({
      listWatch: new FakeListWatch(),
      initialListMode: 'list',
    });
    const abort = new AbortController();
    const waiting = waitForCacheSync(abort.signal, informer, never);
    abort.abort();
    expect(await waiting).toBe(false);
  });

  it('waitForCacheSync also waits on handler registrations (polled hasSynced)', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a'));
    const { informer, run } = startInformer(lw);
    const registration = informer.addEventHandler({});
    void run();
    expect(await waitForCacheSync(controller.signal, registration, informer)).toBe(true);
    expect(registration.hasSynced()).toBe(true);
  });

  it('refuses to run twice and rejects invalid options naming the field', async () => {
    const { informer, run } = startInformer(new FakeListWatch());
    void run();
    await expect(informer.run(controller.signal)).rejects.toThrow(/already started/);
    expect(
      () => new SharedIndexInformer({ listWatch: new FakeListWatch(), resyncPeriodMs: -1 }),
    ).toThrow(/resyncPeriodMs/);
    expect(
      () => new SharedIndexInformer({ listWatch: new FakeListWatch(), transform: 5 as never }),
    ).toThrow(/transform/);
    expect(() => informer.addEventHandler({ onAdd: 'x' as never })).toThrow(/handler\.onAdd/);
  });
});

describe('Lister', () => {
  it('lists by namespace and label selector and gets by name', async () => {
    const lw = new FakeListWatch();
    lw.apply(cm('a', { app: 'web', tier: 'front' }));
    lw.apply(cm('b', { app: 'db' }));
    lw.apply(cm('c', { app: 'web' }, 'other'));
    lw.apply({ metadata: { name: 'node-1', labels: { zone: 'z1' } } });
    const { informer, run } = startInformer(lw);
    void run();
    await synced(informer);
    const lister = newLister(informer.indexer);
    const names = (objects: KubeObject[]) => objects.map((o) => o.metadata?.name).sort();
    expect(names(lister.list())).toEqual(['a', 'b', 'c', 'node-1']);
    expect(names(lister.list('app=web'))).toEqual(['a', 'c']);
    expect(names(lister.list('app in (web,db),tier'))).toEqual(['a']);
    expect(names(lister.list('app!=web,!zone'))).toEqual(['b']);
    expect(
      names(lister.list({ matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['db'] }] })),
    ).toEqual(['a', 'c', 'node-1']);
    expect(names(lister.namespace('ns').list())).toEqual(['a', 'b']);
    expect(names(lister.namespace('ns').list({ matchLabels: { app: 'web' } }))).toEqual(['a']);
    expect(lister.namespace('other').get('c')?.metadata?.name).toBe('c');
    expect(lister.namespace('ns').get('c')).toBeUndefined();
    expect(lister.get('node-1')?.metadata?.labels?.zone).toBe('z1');
    expect(() => lister.list('app in web')).toThrow(/selector/);
  });
});
