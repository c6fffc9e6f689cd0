import { isNotFound } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { MockProvider } from './mock-provider.js';

const signal = new AbortController().signal;
const pod: Wire<V1Pod> = {
  metadata: { name: 'p', namespace: 'ns', uid: 'u' },
  spec: {
    containers: [
      { name: 'a', image: 'nginx' },
      { name: 'b', image: 'redis' },
    ],
  },
};

describe('MockProvider', () => {
  it('records the CDI devices createPod was given, until the pod is deleted', async () => {
    const provider = new MockProvider({ internalIP: '192.168.1.2' });
    const resources = { cdiDevices: { a: ['k8s.gpu.example.com/gpu=gpu-0'] } };
    await provider.createPod(signal, pod, resources);
    expect(provider.podResources('ns', 'p')).toEqual(resources);
    await provider.deletePod(signal, pod);
    expect(provider.podResources('ns', 'p')).toBeUndefined();
  });

  it('runs a created pod at once, as upstream mock reports it, and notifies', async () => {
    const provider = new MockProvider({ internalIP: '192.168.1.2' });
    const seen: Wire<V1Pod>[] = [];
    provider.notifyPods(signal, (p) => seen.push(p));
    await provider.createPod(signal, pod);
    const status = (await provider.getPodStatus(signal, 'ns', 'p')) ?? {};
    expect(status).toMatchObject({ phase: 'Running', hostIP: '1.2.3.4', podIP: '5.6.7.8' });
    expect(status.conditions?.map((c) => c.type)).toEqual(['Initialized', 'Ready', 'PodScheduled']);
    expect(
      status.containerStatuses?.map((c) => [c.name, c.ready, c.state?.running !== undefined]),
    ).toEqual([
      ['a', true, true],
      ['b', true, true],
    ]);
    expect(seen).toHaveLength(1);
  });

  it('keeps and notifies the pod it is given, without a copy per pod, and leaves the given pod as it was', async () => {
    const provider = new MockProvider({ internalIP: '192.168.1.2' });
    const seen: Wire<V1Pod>[] = [];
    provider.notifyPods(signal, (p) => seen.push(p));
    const given = structuredClone(pod);
    await provider.createPod(signal, given);
    // the controller hands the provider a copy of its own: the mock keeps its spec and
    // metadata (as upstream's mock keeps the pointer), which halves the bin's pod memory
    expect(seen[0]?.spec).toBe(given.spec);
    expect(seen[0]?.metadata).toBe(given.metadata);
    expect(given.status).toBeUndefined();
    const deleting = { ...seen[0], status: seen[0]?.status };
    await provider.deletePod(signal, deleting);
    expect(seen[1]?.spec).toBe(given.spec);
    expect(seen[1]?.status?.phase).toBe('Succeeded');
    expect(deleting.status?.phase).toBe('Running');
  });

  it('names in each containerID the createPod call that started it; a hung call abandoned and retried starts the containers once', async () => {
    let draws = [0.1];
    const provider = new MockProvider({
      internalIP: '192.168.1.2',
      hangRate: 0.5,
      random: () => draws.shift() ?? 0.9,
    });
    const abandoned = new AbortController();
    const hung = provider.createPod(abandoned.signal, pod);
    abandoned.abort(new Error('provider timeout'));
    await expect(hung).rejects.toThrow('provider timeout');
    await expect(provider.getPod(signal, 'ns', 'p')).rejects.toThrow('not known');
    draws = [0.9];
    await provider.createPod(signal, pod);
    const status = (await provider.getPodStatus(signal, 'ns', 'p')) ?? {};
    expect(status.containerStatuses?.map((c) => [c.containerID, c.restartCount])).toEqual([
      ['mock://ns/p/create-2', 0],
      ['mock://ns/p/create-2', 0],
    ]);
    await provider.createPod(signal, pod);
    const again = (await provider.getPodStatus(signal, 'ns', 'p')) ?? {};
    expect(again.containerStatuses?.map((c) => [c.containerID, c.restartCount])).toEqual([
      ['mock://ns/p/create-3', 1],
      ['mock://ns/p/create-3', 1],
    ]);
  });

  it('deletes at once with reason MockProviderPodDeleted and terminated containers; a second delete is NotFound', async () => {
    const provider = new MockProvider({ internalIP: '192.168.1.2' });
    const seen: Wire<V1Pod>[] = [];
    provider.notifyPods(signal, (p) => seen.push(p));
    await provider.createPod(signal, pod);
    const running = await provider.getPod(signal, 'ns', 'p');
    await provider.deletePod(signal, running as Wire<V1Pod>);
    const last = seen.at(-1);
    expect(last?.status?.phase).toBe('Succeeded');
    expect(last?.status?.reason).toBe('MockProviderPodDeleted');
    expect(last?.status?.containerStatuses?.[0]?.state?.terminated?.reason).toBe(
      'MockProviderPodContainerDeleted',
    );
    await expect(provider.getPod(signal, 'ns', 'p')).rejects.toSatisfy(isNotFound);
    await expect(provider.deletePod(signal, pod)).rejects.toSatisfy(isNotFound);
    expect(await provider.getPods()).toEqual([]);
  });

  it('failure injection: createFailureRate 1 fails every create', async () => {
    const provider = new MockProvider({ internalIP: '10.1.1.1', createFailureRate: 1 });
    await expect(provider.createPod(signal, pod)).rejects.toThrow('injected create failure');
    expect(() => new MockProvider({ internalIP: '10.1.1.1', createFailureRate: 2 })).toThrow(
      expect.objectContaining({ field: 'createFailureRate' }),
    );
  });

  it('failure injection: hangRate 1 makes every create hang until its signal aborts, then reject with the reason', async () => {
    const provider = new MockProvider({ internalIP: '10.1.1.1', hangRate: 1 });
    const abort = new AbortController();
    let settled = false;
    const creating = provider.createPod(abort.signal, pod).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    abort.abort(new Error('timed out'));
    await expect(creating).rejects.toThrow('timed out');
    expect(await provider.getPods()).toEqual([]);
    expect(() => new MockProvider({ internalIP: '10.1.1.1', hangRate: -0.1 })).toThrow(
      expect.objectContaining({ field: 'hangRate' }),
    );
  });

  it('configures the node: capacity, Ready condition, InternalIP and the kubelet port', () => {
    const node: Wire<V1Node> = { metadata: { name: 'n' } };
    new MockProvider({ internalIP: '10.1.1.1', daemonEndpointPort: 10250 }).configureNode(node);
    expect(node.status?.capacity).toEqual({ cpu: '20', memory: '100Gi', pods: '20' });
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(node.status?.addresses).toEqual([{ type: 'InternalIP', address: '10.1.1.1' }]);
    expect(node.status?.daemonEndpoints?.kubeletEndpoint?.Port).toBe(10250);
  });

  it('stats summary: one entry per pod and container, node totals the sum', async () => {
    const provider = new MockProvider({ internalIP: '10.1.1.1', random: () => 0.5 });
    await provider.createPod(signal, pod);
    const summary = provider.getStatsSummary('n');
    expect(summary.pods).toHaveLength(1);
    expect(summary.pods[0]?.containers.map((c) => c.name)).toEqual(['a', 'b']);
    expect(summary.node.cpu.usageNanoCores).toBe(2 * 5_000_000);
  });
});
