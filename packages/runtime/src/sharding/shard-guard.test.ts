import type { KubeObject, Wire } from '@ctrlkit/client';
import { noopLogger } from '@ctrlkit/core';
import { describe, expect, it, vi } from 'vitest';
import { Controller } from '../controller/controller.js';
import { drainLabel, shardLabel } from './ring-labels.js';
import { guardReconciler, type ShardGuardOptions } from './shard-guard.js';

const RING = 'r';

/** A guard over an informer cache holding `objects`, by key `ns/name`. */
function guard(objects: Record<string, Record<string, string>>, reconcile = vi.fn()) {
  const patch = vi.fn(async () => ({}));
  const cache = new Map<string, Wire<KubeObject>>(
    Object.entries(objects).map(([key, labels]) => {
      const [namespace, name] = key.split('/');
      return [key, { metadata: { namespace, name, labels } } as Wire<KubeObject>];
    }),
  );
  const options: ShardGuardOptions = {
    client: { patch } as unknown as ShardGuardOptions['client'],
    ring: RING,
    shardName: 'a',
    informer: { indexer: { getByKey: (key: string) => cache.get(key) } } as never,
    resource: 'v1/configmaps',
    reconcile,
    logger: noopLogger,
  };
  return { reconciler: guardReconciler(options), reconcile, patch };
}

describe('a sharded controller reconciles only its own objects', () => {
  const live = new AbortController().signal;

  it("reconciles its shard's object; skips another shard's, an unlabelled or a gone one", async () => {
    const { reconciler, reconcile } = guard({
      'ns/mine': { [shardLabel(RING)]: 'a' },
      'ns/theirs': { [shardLabel(RING)]: 'b' },
      'ns/none': {},
    });
    for (const key of ['ns/mine', 'ns/theirs', 'ns/none', 'ns/gone']) await reconciler(key, live);
    expect(reconcile.mock.calls.map(([key]) => key)).toEqual(['ns/mine']);
  });

  it('acknowledges a drain with a JSON patch that tests both labels, instead of reconciling', async () => {
    const { reconciler, reconcile, patch } = guard({
      'ns/x': { [shardLabel(RING)]: 'a', [drainLabel(RING)]: 'true' },
    });
    await reconciler('ns/x', live);
    expect(reconcile).not.toHaveBeenCalled();
    expect(patch).toHaveBeenCalledTimes(1);
    const ops = (patch.mock.calls[0] as unknown[])[2] as Array<{ op: string }>;
    expect(ops.map((o) => o.op)).toEqual(['test', 'test', 'remove', 'remove']);
  });

  it('once the shard is leaving (its signal aborted), keys still queued are not reconciled', async () => {
    // The controller hands out queued keys after its signal aborts (its queue drains, as
    // client-go's does); a shard that lost its Lease must not reconcile them: the successor
    // may own them as soon as the Lease expires.
    const keys = Array.from({ length: 5 }, (_, i) => `ns/k${i}`);
    let release: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reconcile = vi.fn(async (key: string) => {
      if (key === 'ns/k0') await first;
    });
    const { reconciler } = guard(
      Object.fromEntries(keys.map((key) => [key, { [shardLabel(RING)]: 'a' }])),
      reconcile,
    );
    const controller = new Controller({ name: 'c', reconcile: reconciler });
    for (const key of keys) controller.enqueue(key);
    const member = new AbortController();
    const running = controller.run(member.signal);
    await vi.waitFor(() => expect(reconcile).toHaveBeenCalledTimes(1));
    member.abort();
    release();
    await running;
    expect(reconcile.mock.calls.map(([key]) => key)).toEqual(['ns/k0']);
  });
});
