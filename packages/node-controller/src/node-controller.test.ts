import { InvalidArgumentError, isNotFound } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { advance, advanceUntil, flush } from '../test/test-helpers.js';
import type { NodeProvider } from './adapter.js';
import {
  DEFAULT_LEASE_DURATION_SECONDS,
  NodeController,
  updateNodeStatus,
} from './node-controller.js';
import { NodeControllerError } from './node-controller-error.js';
import { NaiveNodeProvider, newNaiveNodeProvider } from './node-provider.js';
import { apiError, FakeKube } from './testing.js';

/** The reason of a NodeControllerError, or undefined for anything else. */
const nodeControllerReason = (error: unknown): string | undefined =>
  NodeControllerError.isInstance(error) ? error.reason : undefined;

function testNode(name = 'vk-node'): Wire<V1Node> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] },
  };
}

function setup() {
  const clock = new FakeClock(0);
  const kube = new FakeKube();
  return { clock, kube, abort: new AbortController() };
}

describe('NodeController', () => {
  it('TestNodeRun: without a lease the status is patched every ping and no lease is touched; a notify reaches the node', async () => {
    const { clock, kube, abort } = setup();
    const provider = newNaiveNodeProvider();
    const nc = new NodeController({
      provider,
      node: testNode(),
      nodes: kube,
      pingIntervalMs: 1,
      statusUpdateIntervalMs: 1,
      clock,
    });
    const run = nc.run(abort.signal);
    await advanceUntil(clock, () => kube.get('nodes', '', 'vk-node') !== undefined);
    await nc.ready;
    await advance(clock, 20);
    const patches = kube.actions.filter((a) => a.verb === 'patch' && a.resource === 'nodes');
    expect(patches.length).toBeGreaterThan(5);
    expect(kube.actions.some((a) => a.resource === 'leases')).toBe(false);

    const update = testNode();
    update.status = { conditions: [{ type: 'UPDATED', status: 'True' }] };
    await provider.updateStatus(abort.signal, update);
    await advanceUntil(clock, () =>
      (kube.get<Wire<V1Node>>('nodes', '', 'vk-node')?.status?.conditions ?? []).some(
        (c) => c.type === 'UPDATED',
      ),
    );
    abort.abort();
    await run;
    expect(nc.err).toBeUndefined();
  });

  it('TestNodeRun with a lease: the lease is created in kube-node-lease, held by the node, owned by it, and renewed', async () => {
    const { clock, kube, abort } = setup();
    const nc = new NodeController({
      provider: new NaiveNodeProvider(),
      node: testNode(),
      nodes: kube,
      clock,
      lease: { client: kube, leaseDurationSeconds: 40, renewIntervalMs: 1 },
    });
    const run = nc.run(abort.signal);
    await advanceUntil(clock, () => kube.get('leases', 'kube-node-lease', 'vk-node') !== undefined);
    const first = kube.get<Wire<V1Lease>>('leases', 'kube-node-lease', 'vk-node');
    expect(first?.spec?.holderIdentity).toBe('vk-node');
    expect(first?.spec?.leaseDurationSeconds).toBe(40);
    const node = kube.get<Wire<V1Node>>('nodes', '', 'vk-node');
    expect(first?.metadata?.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Node', name: 'vk-node', uid: node?.metadata?.uid },
    ]);
    await advance(clock, 50);
    const later = kube.get<Wire<V1Lease>>('leases', 'kube-node-lease', 'vk-node');
    expect(String(later?.spec?.renewTime) > String(first?.spec?.renewTime)).toBe(true);
    expect(String(later?.spec?.renewTime)).toMatch(/\.\d{6}Z$/);
    abort.abort();
    await run;
  });

  it('TestNodeCustomUpdateStatusErrorHandler: a handler that stops the controller and returns nil ends run without error', async () => {
    const { clock, kube, abort } = setup();
    const provider = newNaiveNodeProvider();
    let handled: unknown;
    const nc = new NodeController({
      provider,
      node: testNode(),
      nodes: kube,
      clock,
      pingIntervalMs: 1,
      statusUpdateErrorHandler: (_signal, error) => {
        handled = error;
        abort.abort();
      },
    });
    const run = nc.run(abort.signal);
    await advanceUntil(clock, () => kube.get('nodes', '', 'vk-node') !== undefined);
    await nc.ready;
    kube.remove('nodes', '', 'vk-node');
    await provider.updateStatus(abort.signal, testNode());
    await advanceUntil(clock, () => abort.signal.aborted);
    await run;
    await nc.done;
    expect(nc.err).toBeUndefined();
    expect(isNotFound(handled)).toBe(true);
  });

  it('an error handler can re-create a deleted node, and the retried update then succeeds', async () => {
    const { clock, kube, abort } = setup();
    const nc = new NodeController({
      provider: new NaiveNodeProvider(),
      node: testNode(),
      nodes: kube,
      clock,
      pingIntervalMs: 5,
      statusUpdateErrorHandler: async (_signal, error) => {
        if (!isNotFound(error)) throw error;
        await kube.createNode({ body: testNode() });
      },
    });
    const run = nc.run(abort.signal);
    await advanceUntil(clock, () => kube.get('nodes', '', 'vk-node') !== undefined);
    kube.remove('nodes', '', 'vk-node');
    await advanceUntil(clock, () => kube.get('nodes', '', 'vk-node') !== undefined);
    expect(kube.actions.filter((a) => a.verb === 'create').length).toBe(2);
    abort.abort();
    await run;
  });

  it('TestUpdateNodeStatus: NotFound for a missing node, the status after create, NotFound after delete', async () => {
    const { clock, kube, abort } = setup();
    const node = testNode();
    await expect(updateNodeStatus(kube, node, clock, abort.signal)).rejects.toSatisfy(isNotFound);
    await kube.createNode({ body: node });
    const updated = await updateNodeStatus(kube, node, clock, abort.signal);
    expect(updated.status).toEqual(node.status);
    await kube.deleteNode({ name: 'vk-node' });
    await expect(updateNodeStatus(kube, node, clock, abort.signal)).rejects.toSatisfy(isNotFound);
  });

  it('updateNodeStatus retries a Conflict, up to 5 tries', async () => {
    const { clock, kube, abort } = setup();
    await kube.createNode({ body: testNode() });
    let conflicts = 2;
    kube.prependReactor((a) => {
      if (a.verb === 'patch' && conflicts-- > 0) throw apiError(409, 'conflict');
      return undefined;
    });
    const done = updateNodeStatus(kube, testNode(), clock, abort.signal);
    await advance(clock, 50);
    await expect(done).resolves.toBeDefined();
    expect(kube.actions.filter((a) => a.verb === 'patch').length).toBe(3);

    kube.prependReactor((a) => {
      if (a.verb === 'patch') throw apiError(409, 'conflict');
      return undefined;
    });
    const failing = updateNodeStatus(kube, testNode(), clock, abort.signal);
    failing.catch(() => {});
    await advance(clock, 100);
    await expect(failing).rejects.toMatchObject({ statusCode: 409 });
    expect(kube.actions.filter((a) => a.verb === 'patch').length).toBe(3 + 5);
  });

  it('TestPingAfterStatusUpdate: a provider update in the middle does not delay pings (gap < 25 ms)', async () => {
    const { clock, kube, abort } = setup();
    const pings: number[] = [];
    let notify: ((n: Wire<V1Node>) => void) | undefined;
    const provider: NodeProvider = {
      ping: async () => {
        pings.push(clock.now());
      },
      notifyNodeStatus: (_s, cb) => {
        notify = cb;
      },
    };
    const nc = new NodeController({
      provider,
      node: testNode(),
      nodes: kube,
      clock,
      pingIntervalMs: 10,
      statusUpdateIntervalMs: 60,
      lease: { client: kube, leaseDurationSeconds: 40 },
    });
    const run = nc.run(abort.signal);
    await nc.ready;
    await advance(clock, 30);
    notify?.(testNode());
    await advance(clock, 100);
    abort.abort();
    await run;
    expect(pings.length).toBeGreaterThan(8);
    for (let i = 1; i < pings.length; i++)
      expect((pings[i] ?? 0) - (pings[i - 1] ?? 0)).toBeLessThan(25);
  });

  it('TestBeforeAnnotationsPreserved: annotations set by others before registration survive provider updates', async () => {
    const { clock, kube, abort } = setup();
    kube.seed('nodes', {
      ...testNode(),
      metadata: { name: 'vk-node', annotations: { beforeAnnotation: 'value' } },
    });
    const provider = newNaiveNodeProvider();
    const nc = new NodeController({
      provider,
      node: testNode(),
      nodes: kube,
      clock,
      pingIntervalMs: 5,
    });
    const run = nc.run(abort.signal);
    await nc.ready;
    const update = testNode();
    update.metadata = { name: 'vk-node', annotations: { testAnnotation: 'value' } };
    await provider.updateStatus(abort.signal, update);
    await advanceUntil(
      clock,
      () =>
        kube.get<Wire<V1Node>>('nodes', '', 'vk-node')?.metadata?.annotations?.testAnnotation ===
        'value',
    );
    const annotations = kube.get<Wire<V1Node>>('nodes', '', 'vk-node')?.metadata?.annotations;
    expect(annotations?.beforeAnnotation).toBe('value');
    abort.abort();
    await run;
  });

  it('TestManualConditionsPreserved: conditions and annotations added by others survive; what the provider dropped goes', async () => {
    const { clock, kube, abort } = setup();
    const provider = newNaiveNodeProvider();
    const base = {
      ...testNode(),
      status: { conditions: [{ type: 'BaseCondition', status: 'True' }] },
    };
    const nc = new NodeController({ provider, node: base, nodes: kube, clock, pingIntervalMs: 5 });
    const run = nc.run(abort.signal);
    await nc.ready;
    const withAnnotation = structuredClone(base);
    withAnnotation.metadata = { name: 'vk-node', annotations: { testAnnotation: 'value' } };
    await provider.updateStatus(abort.signal, withAnnotation);
    const get = () => kube.get<Wire<V1Node>>('nodes', '', 'vk-node') as Wire<V1Node>;
    await advanceUntil(clock, () => get().metadata?.annotations?.testAnnotation === 'value');

    const manual = get();
    manual.status?.conditions?.push({ type: 'ManuallyAddedCondition', status: 'True' });
    manual.metadata = manual.metadata ?? {};
    manual.metadata.annotations = {
      ...manual.metadata.annotations,
      manuallyAddedAnnotation: 'value',
    };
    kube.put('nodes', manual);

    const next = structuredClone(base);
    next.status = {
      conditions: [
        { type: 'BaseCondition', status: 'True' },
        { type: 'NewCondition', status: 'True' },
      ],
    };
    await provider.updateStatus(abort.signal, next);
    await advanceUntil(clock, () =>
      (get().status?.conditions ?? []).some((c) => c.type === 'NewCondition'),
    );
    const node = get();
    expect((node.status?.conditions ?? []).map((c) => c.type).sort()).toEqual([
      'BaseCondition',
      'ManuallyAddedCondition',
      'NewCondition',
    ]);
    expect(node.metadata?.annotations?.testAnnotation).toBeUndefined();
    expect(node.metadata?.annotations?.manuallyAddedAnnotation).toBe('value');
    abort.abort();
    await run;
  });

  it('TestPingTimeout: a ping that never returns gives PingTimeout after the timeout, with exactly one ping in flight', async () => {
    const { clock, kube, abort } = setup();
    let calls = 0;
    const provider: NodeProvider = {
      ping: () => {
        calls++;
        return new Promise(() => {});
      },
      notifyNodeStatus: () => {},
    };
    const nc = new NodeController({
      provider,
      node: testNode(),
      nodes: kube,
      clock,
      pingIntervalMs: 10,
      pingTimeoutMs: 100,
    });
    const run = nc.run(abort.signal);
    run.catch(() => {});
    await advance(clock, 150);
    await flush();
    await nc.done;
    expect(nodeControllerReason(nc.err)).toBe('NodeNotReady');
    expect(nodeControllerReason((nc.err as Error).cause)).toBe('PingTimeout');
    expect(calls).toBe(1);
  });

  it('a ping that fails after startup stops status patches but run goes on', async () => {
    const { clock, kube, abort } = setup();
    let healthy = true;
    const provider: NodeProvider = {
      ping: async () => {
        if (!healthy) throw new Error('backend down');
      },
      notifyNodeStatus: () => {},
    };
    const nc = new NodeController({
      provider,
      node: testNode(),
      nodes: kube,
      clock,
      pingIntervalMs: 10,
    });
    const run = nc.run(abort.signal);
    await nc.ready;
    healthy = false;
    await advance(clock, 30, 5);
    const before = kube.actions.filter((a) => a.verb === 'patch').length;
    await advance(clock, 100, 5);
    expect(kube.actions.filter((a) => a.verb === 'patch').length).toBe(before);
    healthy = true;
    await advance(clock, 50, 5);
    expect(kube.actions.filter((a) => a.verb === 'patch').length).toBeGreaterThan(before);
    abort.abort();
    await run;
    expect(nc.err).toBeUndefined();
  });

  it('nodeNotReadyError: the error type is recognised by its guard', () => {
    const error = new NodeControllerError('NodeNotReady', 'not ready');
    expect(nodeControllerReason(error)).toBe('NodeNotReady');
    expect(nodeControllerReason(error)).not.toBe('PingTimeout');
    expect(NodeControllerError.isInstance(new Error('x'))).toBe(false);
  });

  it('a failed registration rejects run with "error registering node with kubernetes" and never resolves ready', async () => {
    const { clock, kube, abort } = setup();
    kube.prependReactor((a) => {
      if (a.verb === 'create') throw apiError(500, 'boom');
      return undefined;
    });
    const nc = new NodeController({
      provider: new NaiveNodeProvider(),
      node: testNode(),
      nodes: kube,
      clock,
    });
    await expect(nc.run(abort.signal)).rejects.toThrow(
      /^error registering node with kubernetes: boom/,
    );
    let ready = false;
    void nc.ready.then(() => {
      ready = true;
    });
    await flush();
    expect(ready).toBe(false);
  });
});

describe('NodeController options', () => {
  const kube = new FakeKube();
  const required = () => ({ provider: new NaiveNodeProvider(), node: testNode(), nodes: kube });
  it('rejects a lease duration whose renew interval rounds to 0 s, naming the option', () => {
    expect(
      () => new NodeController({ ...required(), lease: { client: kube, leaseDurationSeconds: 3 } }),
    ).toThrow(expect.objectContaining({ field: 'lease.leaseDurationSeconds' }));
  });

  it('rejects a ping timeout of 0 ("Node ping timeout is 0")', () => {
    expect(() => new NodeController({ ...required(), pingTimeoutMs: 0 })).toThrow(
      /Node ping timeout is 0/,
    );
  });

  it('rejects a renew interval not shorter than the duration', () => {
    expect(
      () =>
        new NodeController({
          ...required(),
          lease: { client: kube, leaseDurationSeconds: 10, renewIntervalMs: 10_000 },
        }),
    ).toThrow(InvalidArgumentError);
  });

  it('0 means the default', () => {
    expect(() => new NodeController({ ...required(), pingIntervalMs: 0 })).not.toThrow();
    expect(DEFAULT_LEASE_DURATION_SECONDS).toBe(40);
    expect(() => new NodeController({ ...required(), pingIntervalMs: -1 })).toThrow(
      expect.objectContaining({ field: 'pingIntervalMs' }),
    );
  });

  it('rejects a missing provider, node name or Node client, naming it', () => {
    const { provider, node, nodes } = required();
    const fieldOf = (options: object) => {
      try {
        new NodeController(options as never);
      } catch (error) {
        return InvalidArgumentError.isInstance(error) ? error.field : undefined;
      }
      return undefined;
    };
    expect(fieldOf({ node, nodes })).toBe('provider');
    expect(fieldOf({ provider, node: { metadata: {} }, nodes })).toBe('node.metadata.name');
    expect(fieldOf({ provider, node })).toBe('nodes');
  });

  it('rejects the positional form (provider, node, nodes, options), which is gone', () => {
    const make = () =>
      new (NodeController as unknown as new (...args: unknown[]) => NodeController)(
        new NaiveNodeProvider(),
        testNode(),
        kube,
        {},
      );
    expect(make).toThrow(InvalidArgumentError);
    expect(make).toThrow(/one options object \{ provider, node, nodes, \.\.\. \}/);
  });
});
