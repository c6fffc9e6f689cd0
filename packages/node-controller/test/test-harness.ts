//! A PodController wired to a FakeKube and the runtime's real informers, for unit tests.

import { FakeClock } from '@ctrlkit/core/testing';
import { formatTime, type KubeObject, type Wire } from '@ctrlkit/runtime/client';
import { SharedIndexInformer } from '@ctrlkit/runtime/informers';
import { FakeRecorder } from '@ctrlkit/runtime/testing';
import { newItemExponentialFailureRateLimiter } from '@ctrlkit/workqueue';
import type { V1ConfigMap, V1Pod, V1PodStatus, V1Secret, V1Service } from '@kubernetes/client-node';
import type { PodLifecycleHandler, PodNotifier, PodResources } from '../src/adapter.js';
import { notFound } from '../src/errdefs.js';
import { PodController } from '../src/pod-controller.js';
import type { PodControllerConfig } from '../src/pod-controller-config.js';
import { FakeKube, type FakeResource } from '../src/testing/fake-kube.js';

/** A provider that keeps pods in memory and runs them at once, like virtual-kubelet's mock. */
export class MemoryProvider implements PodLifecycleHandler {
  readonly pods = new Map<string, Wire<V1Pod>>();
  readonly calls: Array<{
    op: 'create' | 'update' | 'delete';
    pod: Wire<V1Pod>;
    resources?: PodResources;
  }> = [];
  createError: Error | undefined;
  deleteError: Error | undefined;
  protected notify: ((pod: Wire<V1Pod>) => void) | undefined;

  async createPod(
    _signal: AbortSignal,
    pod: Wire<V1Pod>,
    ...rest: [resources?: PodResources]
  ): Promise<void> {
    // Records the third argument only when it was given (a controller may pass two).
    this.calls.push({
      op: 'create',
      pod: structuredClone(pod),
      ...(rest.length > 0 && { resources: rest[0] }),
    });
    if (this.createError) throw this.createError;
    const running = structuredClone(pod);
    const now = formatTime(Date.now());
    running.status = {
      phase: 'Running',
      podIP: '10.0.0.1',
      startTime: now,
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: (pod.spec?.containers ?? []).map((c) => ({
        name: c.name,
        image: c.image ?? '',
        imageID: '',
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: now } },
      })),
    };
    this.pods.set(key(pod), running);
    this.notify?.(structuredClone(running));
  }

  async updatePod(_signal: AbortSignal, pod: Wire<V1Pod>): Promise<void> {
    this.calls.push({ op: 'update', pod: structuredClone(pod) });
    const old = this.pods.get(key(pod));
    this.pods.set(key(pod), { ...structuredClone(pod), status: old?.status });
  }

  async deletePod(_signal: AbortSignal, pod: Wire<V1Pod>): Promise<void> {
    this.calls.push({ op: 'delete', pod: structuredClone(pod) });
    if (this.deleteError) throw this.deleteError;
    if (!this.pods.has(key(pod))) throw notFound(`pod ${key(pod)} not found`);
    this.pods.delete(key(pod));
    const done = structuredClone(pod);
    done.status = {
      ...done.status,
      phase: 'Succeeded',
      reason: 'MockProviderPodDeleted',
      containerStatuses: (done.status?.containerStatuses ?? []).map((cs) => ({
        ...cs,
        ready: false,
        state: { terminated: { exitCode: 0, reason: 'MockProviderPodContainerDeleted' } },
      })),
    };
    this.notify?.(done);
  }

  async getPod(
    _signal: AbortSignal,
    namespace: string,
    name: string,
  ): Promise<Wire<V1Pod> | undefined> {
    const pod = this.pods.get(`${namespace}/${name}`);
    if (pod === undefined) throw notFound(`pod ${namespace}/${name} not found`);
    return structuredClone(pod);
  }

  async getPodStatus(
    _signal: AbortSignal,
    namespace: string,
    name: string,
  ): Promise<Wire<V1PodStatus> | undefined> {
    return structuredClone(this.pods.get(`${namespace}/${name}`)?.status);
  }

  async getPods(): Promise<Wire<V1Pod>[]> {
    return [...this.pods.values()].map((p) => structuredClone(p));
  }
}

/** The same provider, pushing status changes through `notifyPods`. */
export class NotifyingMemoryProvider extends MemoryProvider implements PodNotifier {
  notifyPods(_signal: AbortSignal, callback: (pod: Wire<V1Pod>) => void): void {
    this.notify = callback;
  }
}

function key(pod: Wire<V1Pod>): string {
  return `${pod.metadata?.namespace}/${pod.metadata?.name}`;
}

/** A pod bound to the test node. */
export function testPod(name: string, overrides: Partial<Wire<V1Pod>['spec']> = {}): Wire<V1Pod> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName: 'vk', containers: [{ name: 'c', image: 'nginx:1' }], ...overrides },
  };
}

export interface Harness {
  kube: FakeKube;
  clock: FakeClock;
  recorder: FakeRecorder;
  controller: PodController;
  abort: AbortController;
  run: Promise<void>;
  informers: AbortController;
}

/** Starts informers over `kube` and a controller over them with `provider`. */
export async function startHarness(
  provider: PodLifecycleHandler,
  options: { kube?: FakeKube; workers?: number; config?: Partial<PodControllerConfig> } = {},
): Promise<Harness> {
  const kube = options.kube ?? new FakeKube();
  const clock = new FakeClock(0);
  const recorder = new FakeRecorder();
  const informers = new AbortController();
  const informer = <T extends KubeObject>(resource: FakeResource, fieldSelector = '') => {
    const i = new SharedIndexInformer<T>({
      listWatch: kube.listWatch<T>(resource, fieldSelector),
      name: resource,
    });
    void i.run(informers.signal);
    return i;
  };
  const limiter = () => newItemExponentialFailureRateLimiter<string>(5, 1000);
  const controller = new PodController({
    podClient: kube,
    podInformer: informer<Wire<V1Pod>>('pods', 'spec.nodeName=vk'),
    configMapInformer: informer<Wire<V1ConfigMap>>('configmaps'),
    secretInformer: informer<Wire<V1Secret>>('secrets'),
    serviceInformer: informer<Wire<V1Service>>('services'),
    eventRecorder: recorder,
    provider,
    syncPodsFromKubernetesRateLimiter: limiter(),
    deletePodsFromKubernetesRateLimiter: limiter(),
    syncPodStatusFromProviderRateLimiter: limiter(),
    clock,
    ...options.config,
  });
  const abort = new AbortController();
  const run = controller.run(abort.signal, options.workers ?? 3);
  run.catch(() => {});
  await controller.ready;
  return { kube, clock, recorder, controller, abort, run, informers };
}

/** Stops the controller and the informers. */
export async function stopHarness(h: Harness): Promise<void> {
  h.abort.abort();
  await h.run;
  h.informers.abort();
}
