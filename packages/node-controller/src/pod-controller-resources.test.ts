// The pod controller's resourcePreparer (the DRA node side's hook): called before createPod of a
// pod with claims, its devices handed to the provider; a failure keeps the pod Pending with an
// event and is retried.
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { MemoryProvider, startHarness, stopHarness, testPod } from '../test/test-harness.js';
import { advanceUntil } from '../test/test-helpers.js';
import type { PodResources } from './adapter.js';
import { DraError } from './dra/dra-error.js';
import type { PodResourcePreparer } from './pod-controller-config.js';

const withClaim = (name: string) =>
  testPod(name, {
    resourceClaims: [{ name: 'gpu', resourceClaimName: `${name}-claim` }],
    containers: [{ name: 'c', image: 'cuda', resources: { claims: [{ name: 'gpu' }] } }],
  });

/** A preparer that fails `failures` times (calling `requeue` on the last failure), then gives `resources`. */
function preparer(failures: number, resources: PodResources) {
  const seen: string[] = [];
  const fake: PodResourcePreparer = {
    async preparePod(_signal, pod: Wire<V1Pod>, requeue) {
      seen.push(pod.metadata?.name ?? '');
      if (seen.length <= failures) {
        if (seen.length === failures) setTimeout(requeue, 0);
        throw new DraError(
          'DriverNotRegistered',
          `default/${pod.metadata?.name}-claim`,
          'driver gpu.example.com is not registered',
        );
      }
      return resources;
    },
  };
  return { fake, seen };
}

describe('resourcePreparer', () => {
  it('prepares a pod with claims before createPod, which gets each container its CDI devices', async () => {
    const provider = new MemoryProvider();
    const resources = { cdiDevices: { c: ['k8s.gpu.example.com/gpu=gpu-0'] } };
    const { fake, seen } = preparer(0, resources);
    const h = await startHarness(provider, { config: { resourcePreparer: fake } });
    await h.kube.createNamespacedPod({ namespace: 'default', body: withClaim('p1') });
    await h.kube.createNamespacedPod({ namespace: 'default', body: testPod('plain') });
    await advanceUntil(h.clock, () => provider.calls.filter((c) => c.op === 'create').length === 2);
    const created = new Map(provider.calls.map((c) => [c.pod.metadata?.name, c]));
    expect(created.get('p1')?.resources).toEqual(resources);
    // A pod without claims is not prepared, and createPod gets no third argument.
    expect(seen).toEqual(['p1']);
    expect(created.get('plain')).toBeDefined();
    expect(Object.keys(created.get('plain') ?? {})).not.toContain('resources');
    await stopHarness(h);
  });

  it('a failed prepare keeps the pod Pending with a FailedPrepareDynamicResources event, and is retried', async () => {
    const provider = new MemoryProvider();
    const { fake, seen } = preparer(2, { cdiDevices: {} });
    const h = await startHarness(provider, { config: { resourcePreparer: fake } });
    await h.kube.createNamespacedPod({ namespace: 'default', body: withClaim('p2') });
    await advanceUntil(h.clock, () => seen.length === 1);
    expect(h.recorder.events).toContain(
      'Warning FailedPrepareDynamicResources Failed to prepare dynamic resources: claim default/p2-claim: driver gpu.example.com is not registered',
    );
    expect(provider.calls.filter((c) => c.op === 'create')).toEqual([]);
    // Not marked ProviderFailed: no status written for it.
    expect(h.kube.actions.filter((a) => a.subresource === 'status')).toEqual([]);
    await advanceUntil(h.clock, () => provider.calls.some((c) => c.op === 'create'));
    expect(seen).toEqual(['p2', 'p2', 'p2']);
    await stopHarness(h);
  });
});
