import { InvalidArgumentError } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import { newItemExponentialFailureRateLimiter } from '@ctrlkit/workqueue';
import { describe, expect, it } from 'vitest';
import { CacheSyncTimeoutError } from './cache-sync-timeout-error.js';
import { Controller } from './controller.js';
import type { EventHandlers, EventSource, ObjectWithMetadata } from './event-source.js';
import { enqueueRequestForOwner } from './keys.js';
import type { Reconciler } from './reconciler.js';
import { TerminalError } from './terminal-error.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An event source driven by the test: it calls the registered handlers directly. */
class ScriptedSource implements EventSource<ObjectWithMetadata> {
  readonly handlers: EventHandlers<ObjectWithMetadata>[] = [];
  synced = true;
  addEventHandler(handlers: EventHandlers<ObjectWithMetadata>) {
    this.handlers.push(handlers);
  }
  hasSynced() {
    return this.synced;
  }
  add(obj: ObjectWithMetadata) {
    for (const h of this.handlers) h.onAdd?.(obj, false);
  }
  update(oldObj: ObjectWithMetadata, newObj: ObjectWithMetadata) {
    for (const h of this.handlers) h.onUpdate?.(oldObj, newObj);
  }
  delete(obj: ObjectWithMetadata | { key: string; obj: unknown }) {
    for (const h of this.handlers) h.onDelete?.(obj);
  }
}

const cm = (name: string, namespace = 'ns', extra: ObjectWithMetadata['metadata'] = {}) => ({
  metadata: { name, namespace, ...extra },
});

function setup(reconcile: Reconciler, workers = 1) {
  const clock = new FakeClock();
  const source = new ScriptedSource();
  const controller = new Controller({
    name: 'test',
    reconcile,
    maxConcurrentReconciles: workers,
    clock,
    rateLimiter: newItemExponentialFailureRateLimiter<string>(10, 1000),
  }).watch(source);
  const stop = new AbortController();
  return { clock, source, controller, stop };
}

describe('Controller', () => {
  it('reconciles the keys of adds, updates and deletes, tombstones included', async () => {
    const seen: string[] = [];
    const { source, controller, stop } = setup((key) => void seen.push(key));
    const running = controller.run(stop.signal);
    source.add(cm('a'));
    await tick();
    source.update(cm('a'), cm('b'));
    await tick();
    source.delete({ key: 'ns/c', obj: cm('c') });
    await tick();
    source.add(cm('cluster-scoped', ''));
    await tick();
    expect(seen).toEqual(['ns/a', 'ns/b', 'ns/c', 'cluster-scoped']);
    stop.abort();
    await running;
  });

  it('maps objects to their controlling owner and filters events', async () => {
    const seen: string[] = [];
    const clock = new FakeClock();
    const source = new ScriptedSource();
    const controller = new Controller({
      name: 'owners',
      reconcile: (k) => void seen.push(k),
      clock,
    }).watch(source, {
      mapToKeys: enqueueRequestForOwner({ kind: 'Owner', group: 'example.com' }),
      filter: (obj) => !obj.metadata?.name?.startsWith('skip'),
    });
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    const owned = (name: string, controllerRef: boolean, apiVersion = 'example.com/v1') =>
      cm(name, 'ns', {
        ownerReferences: [
          { apiVersion, kind: 'Owner', name: 'parent', uid: 'u', controller: controllerRef },
        ],
      });
    source.add(owned('child', true));
    source.add(owned('not-controller', false));
    source.add(owned('other-group', true, 'other.io/v1'));
    source.add(owned('skip-me', true));
    await tick();
    expect(seen).toEqual(['ns/parent']);
    stop.abort();
    await running;
  });

  it('an update enqueues the owners of the old and of the new object (an owner the object left is told)', async () => {
    const seen: string[] = [];
    const source = new ScriptedSource();
    const controller = new Controller({
      name: 'owners',
      reconcile: (k) => void seen.push(k),
      clock: new FakeClock(),
    }).watch(source, { mapToKeys: enqueueRequestForOwner({ kind: 'Owner' }) });
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    const ownedBy = (parent: string) =>
      cm('child', 'ns', {
        ownerReferences: [
          {
            apiVersion: 'example.com/v1',
            kind: 'Owner',
            name: parent,
            uid: parent,
            controller: true,
          },
        ],
      });
    source.update(ownedBy('a'), ownedBy('b'));
    await tick();
    expect(seen.sort()).toEqual(['ns/a', 'ns/b']);
    source.update(ownedBy('b'), ownedBy('b'));
    await tick();
    expect(seen.sort()).toEqual(['ns/a', 'ns/b', 'ns/b']);
    stop.abort();
    await running;
  });

  it('starts workers only once every watched informer has synced', async () => {
    const seen: string[] = [];
    const { clock, source, controller, stop } = setup((key) => void seen.push(key));
    source.synced = false;
    const running = controller.run(stop.signal);
    source.add(cm('early'));
    await tick();
    clock.step(1000);
    await tick();
    expect(seen).toEqual([]);
    source.synced = true;
    clock.step(100);
    await tick();
    expect(seen).toEqual(['ns/early']);
    stop.abort();
    await running;
  });

  it('waits for its own handler registration to sync when the informer offers one', async () => {
    const seen: string[] = [];
    const clock = new FakeClock();
    let registrationSynced = false;
    const source = new ScriptedSource();
    const registering: EventSource<ObjectWithMetadata> = {
      addEventHandler: (handlers) => {
        source.addEventHandler(handlers);
        return { hasSynced: () => registrationSynced };
      },
      hasSynced: () => true,
    };
    const controller = new Controller({
      name: 'registration',
      reconcile: (key) => void seen.push(key),
      clock,
    }).watch(registering);
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    source.add(cm('queued'));
    clock.step(500);
    await tick();
    expect(seen).toEqual([]);
    registrationSynced = true;
    clock.step(100);
    await tick();
    expect(seen).toEqual(['ns/queued']);
    stop.abort();
    await running;
  });

  it('rejects with CacheSyncTimeoutError when the caches do not sync in time', async () => {
    const clock = new FakeClock();
    const source = new ScriptedSource();
    source.synced = false;
    const controller = new Controller({
      name: 'slow',
      reconcile: () => {},
      clock,
      cacheSyncTimeoutMs: 5000,
    }).watch(source);
    const running = controller.run(new AbortController().signal);
    clock.step(5000);
    await expect(running).rejects.toSatisfy((e) => CacheSyncTimeoutError.isInstance(e));
    expect(controller.queue.shuttingDown()).toBe(true);
  });

  it('requeues an error with the rate limiter, forgets on success, drops a TerminalError', async () => {
    const calls: string[] = [];
    let failures = 2;
    const { clock, source, controller, stop } = setup((key) => {
      calls.push(key);
      if (key === 'ns/terminal') throw new TerminalError('cannot be fixed');
      if (failures-- > 0) throw new Error('transient');
    });
    const running = controller.run(stop.signal);
    source.add(cm('flaky'));
    await tick();
    expect(calls).toEqual(['ns/flaky']);
    expect(controller.queue.numRequeues('ns/flaky')).toBe(1);
    clock.step(9);
    await tick();
    expect(calls).toHaveLength(1);
    clock.step(1);
    await tick();
    expect(calls).toHaveLength(2);
    clock.step(20);
    await tick();
    expect(calls).toHaveLength(3);
    expect(controller.queue.numRequeues('ns/flaky')).toBe(0);

    source.add(cm('terminal'));
    await tick();
    clock.step(10_000);
    await tick();
    expect(calls.filter((k) => k === 'ns/terminal')).toHaveLength(1);
    expect(controller.queue.numRequeues('ns/terminal')).toBe(0);
    stop.abort();
    await running;
  });

  it('requeues after the delay a result asks for', async () => {
    const calls: number[] = [];
    const { clock, source, controller, stop } = setup(() => {
      calls.push(clock.now() - start);
      return calls.length < 3 ? { requeueAfterMs: 500 } : { requeue: false };
    });
    const start = clock.now();
    const running = controller.run(stop.signal);
    source.add(cm('periodic'));
    await tick();
    clock.step(499);
    await tick();
    expect(calls).toEqual([0]);
    clock.step(1);
    await tick();
    clock.step(500);
    await tick();
    clock.step(5000);
    await tick();
    expect(calls).toEqual([0, 500, 1000]);
    stop.abort();
    await running;
  });

  it('treats a result with the old name requeueAfter as an error naming requeueAfterMs', async () => {
    const errors: unknown[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (fields: object) => errors.push((fields as { err?: unknown }).err),
    };
    const clock = new FakeClock();
    const source = new ScriptedSource();
    const controller = new Controller({
      name: 'test',
      reconcile: () => ({ requeueAfter: 500 }) as never,
      clock,
      logger,
      rateLimiter: newItemExponentialFailureRateLimiter<string>(10, 1000),
    }).watch(source);
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    source.add(cm('renamed'));
    await tick();
    expect(InvalidArgumentError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as Error).message).toBe('invalid requeueAfter: renamed to requeueAfterMs');
    expect(controller.queue.numRequeues('ns/renamed')).toBe(1);
    stop.abort();
    await running;
  });

  it('never reconciles one key in two workers, and reconciles again after events during a reconcile', async () => {
    let active = 0;
    let overlaps = 0;
    let runs = 0;
    let release: () => void = () => {};
    const { source, controller, stop } = setup(async () => {
      active++;
      if (active > 1) overlaps++;
      runs++;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      active--;
    }, 4);
    const running = controller.run(stop.signal);
    source.add(cm('same'));
    await tick();
    source.update(cm('same'), cm('same'));
    source.update(cm('same'), cm('same'));
    await tick();
    expect(runs).toBe(1);
    release();
    await tick();
    expect(runs).toBe(2);
    release();
    await tick();
    expect(runs).toBe(2);
    expect(overlaps).toBe(0);
    stop.abort();
    await running;
  });

  it('on abort lets the keys in progress finish, then resolves', async () => {
    let finished = false;
    let release: () => void = () => {};
    const { source, controller, stop } = setup(async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      finished = true;
    });
    const running = controller.run(stop.signal);
    source.add(cm('slow'));
    await tick();
    stop.abort();
    let resolved = false;
    void running.then(() => {
      resolved = true;
    });
    await tick();
    expect(resolved).toBe(false);
    release();
    await running;
    expect(finished).toBe(true);
  });

  it('rejects invalid options, naming the field', () => {
    expect(() => new Controller({ name: '', reconcile: () => {} })).toThrow(/options\.name/);
    expect(() => new Controller({ name: 'x' } as never)).toThrow(/options\.reconcile/);
    expect(
      () => new Controller({ name: 'x', reconcile: () => {}, maxConcurrentReconciles: 0 }),
    ).toThrow(/options\.maxConcurrentReconciles/);
    expect(() => new Controller({ name: 'x', reconcile: () => {}, workers: 2 } as never)).toThrow(
      /options\.workers: unknown option/,
    );
  });
});
