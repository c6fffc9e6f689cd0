import { noopLogger } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { advance } from '../../test/test-helpers.js';
import { MAX_LEASE_UPDATE_ATTEMPTS, NODE_LEASE_NAMESPACE } from '../node-lease.js';
import { apiError, FakeKube } from '../testing/fake-kube.js';
import { NodeLeaseController } from './node-lease-controller.js';

function setup() {
  const kube = new FakeKube();
  const clock = new FakeClock(0);
  const node = kube.seed<Wire<V1Node>>('nodes', { metadata: { name: 'n1' } });
  const errors: string[] = [];
  const controller = new NodeLeaseController({
    client: kube,
    leaseDurationSeconds: 40,
    renewIntervalMs: 10_000,
    clock,
    wallTime: () => new Date(Date.UTC(2026, 0, 1) + clock.now()),
    logger: { ...noopLogger, error: (_c, m) => errors.push(m ?? '') },
    serverNode: () => node,
    pingSucceeded: async () => true,
  });
  return { kube, clock, node, controller, errors, signal: new AbortController().signal };
}

describe('NodeLeaseController', () => {
  it('creates the lease on the first sync (no update that round), then updates it', async () => {
    const { kube, controller, signal } = setup();
    await controller.sync(signal);
    expect(kube.actions.map((a) => a.verb)).toEqual(['get', 'create']);
    await controller.sync(signal);
    expect(kube.actions.map((a) => a.verb)).toEqual(['get', 'create', 'update']);
  });

  it('keeps the holder and duration of an existing lease, and adds the owner reference', async () => {
    const { kube, controller, signal, node } = setup();
    kube.seed<Wire<V1Lease>>('leases', {
      metadata: { name: 'n1', namespace: NODE_LEASE_NAMESPACE },
      spec: { holderIdentity: 'someone', leaseDurationSeconds: 99 },
    });
    await controller.sync(signal);
    const lease = kube.get<Wire<V1Lease>>('leases', NODE_LEASE_NAMESPACE, 'n1');
    expect(lease?.spec).toMatchObject({ holderIdentity: 'someone', leaseDurationSeconds: 99 });
    expect(String(lease?.spec?.renewTime)).toBe('2026-01-01T00:00:00.000000Z');
    expect(lease?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'Node',
      name: 'n1',
      uid: node.metadata?.uid,
    });
  });

  it('a Conflict re-reads the lease and retries; 5 failed attempts log "failed after 5 attempts to update node lease"', async () => {
    const { kube, controller, signal, errors } = setup();
    await controller.sync(signal);
    let conflicts = 1;
    kube.prependReactor((a) => {
      if (a.verb === 'update' && conflicts-- > 0) throw apiError(409, 'conflict');
      return undefined;
    });
    await controller.sync(signal);
    expect(kube.actions.slice(2).map((a) => a.verb)).toEqual(['update', 'get', 'update']);

    kube.prependReactor((a) => {
      if (a.verb === 'update') throw apiError(500, 'down');
      return undefined;
    });
    const before = kube.actions.length;
    await controller.sync(signal);
    const updates = kube.actions.slice(before).filter((a) => a.verb === 'update').length;
    // the cached lease gets 5 tries, then a fresh GET and 5 more
    expect(updates).toBe(2 * MAX_LEASE_UPDATE_ATTEMPTS);
    expect(errors).toContain('failed after 5 attempts to update node lease');
  });

  it('GET errors other than NotFound are retried with backoff 200 ms, 400 ms, ...', async () => {
    const { kube, controller, clock } = setup();
    let failures = 3;
    kube.prependReactor((a) => {
      if (a.verb === 'get' && failures-- > 0) throw apiError(500, 'down');
      return undefined;
    });
    const abort = new AbortController();
    const sync = controller.sync(abort.signal);
    await advance(clock, 199, 1);
    expect(kube.actions.length).toBe(1);
    await advance(clock, 2, 1);
    expect(kube.actions.length).toBe(2);
    await advance(clock, 400 + 800, 10);
    await sync;
    expect(kube.actions.map((a) => a.verb)).toEqual(['get', 'get', 'get', 'get', 'create']);
  });

  it('skips the round when the last ping failed', async () => {
    const kube = new FakeKube();
    const controller = new NodeLeaseController({
      client: kube,
      leaseDurationSeconds: 40,
      renewIntervalMs: 10_000,
      clock: new FakeClock(0),
      wallTime: () => new Date(),
      logger: noopLogger,
      serverNode: () => ({ metadata: { name: 'n', uid: 'u' } }),
      pingSucceeded: async () => false,
    });
    await controller.sync(new AbortController().signal);
    expect(kube.actions).toEqual([]);
  });
});
