import { InvalidArgumentError } from '@ctrlkit/core';
import type { Wire } from '@ctrlkit/runtime/client';
import { FakeRecorder } from '@ctrlkit/runtime/testing';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  type Harness,
  MemoryProvider,
  NotifyingMemoryProvider,
  startHarness,
  stopHarness,
  testPod,
} from '../test/test-harness.js';
import { advance, advanceUntil } from '../test/test-helpers.js';
import { isInvalidInput } from './errdefs.js';
import { PodController } from './pod-controller.js';
import { ProviderTimeoutError } from './provider-timeout-error.js';
import { apiError, FakeKube } from './testing.js';

const get = (h: Harness, name: string) => h.kube.get<Wire<V1Pod>>('pods', 'default', name);

async function createPod(h: Harness, pod: Wire<V1Pod>): Promise<Wire<V1Pod>> {
  return h.kube.createNamespacedPod({ namespace: 'default', body: pod });
}

describe('NewPodController', () => {
  it('rejects a config missing a required field, in the seed order, as InvalidInput', () => {
    const kube = new FakeKube();
    expect(() => new PodController({} as never)).toThrow(/missing core client/);
    let error: unknown;
    try {
      new PodController({ podClient: kube } as never);
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(isInvalidInput(error)).toBe(true);
    expect((error as Error).message).toMatch(/missing event recorder/);
    expect(
      () => new PodController({ podClient: kube, eventRecorder: new FakeRecorder() } as never),
    ).toThrow(/missing pod informer/);
  });
});

for (const [kind, makeProvider] of [
  ['async', () => new NotifyingMemoryProvider()],
  ['sync', () => new MemoryProvider()],
] as const) {
  describe(`lifecycle (${kind} provider, 3 workers)`, () => {
    it('TestPodLifecycle/createStartDeleteScenario: created pod runs, then a graceful delete ends in its removal', async () => {
      const provider = makeProvider();
      const h = await startHarness(provider);
      await createPod(h, testPod('p1'));
      await advanceUntil(h.clock, () => get(h, 'p1')?.status?.phase === 'Running');
      expect(h.recorder.events).toContain(
        'Normal ProviderCreateSuccess Create pod in provider successfully',
      );

      await h.kube.deleteNamespacedPod({
        name: 'p1',
        namespace: 'default',
        gracePeriodSeconds: 300,
      });
      expect(get(h, 'p1')?.metadata?.deletionTimestamp).toBeDefined();
      // gone once the terminal status is written, long before the 300 s grace period ends
      await advanceUntil(h.clock, () => get(h, 'p1') === undefined, 6_000);
      expect(provider.calls.filter((c) => c.op === 'delete').length).toBeGreaterThanOrEqual(1);
      const statusWrites = h.kube.actions.filter((a) => a.subresource === 'status');
      const terminal = statusWrites
        .map((a) => (a.body as Wire<V1Pod>).status)
        .find((s) => s?.phase === 'Succeeded');
      expect(terminal?.reason).toBe(kind === 'async' ? 'MockProviderPodDeleted' : 'Terminated');
      const force = h.kube.actions.find((a) => a.verb === 'delete' && a.gracePeriodSeconds === 0);
      expect(force?.body).toEqual({
        gracePeriodSeconds: 0,
        preconditions: { uid: expect.any(String) },
      });
      await stopHarness(h);
    });

    it('TestPodLifecycle/danglingPodScenario: a pod only in the provider at start is deleted once', async () => {
      const provider = makeProvider();
      provider.pods.set('default/ghost', testPod('ghost'));
      const h = await startHarness(provider);
      expect(
        provider.calls.filter((c) => c.op === 'delete').map((c) => c.pod.metadata?.name),
      ).toEqual(['ghost']);
      await stopHarness(h);
    });

    it('TestPodLifecycle/deletionTimestampAtStart: a pod in the provider and in the API with deletionTimestamp is removed', async () => {
      const kube = new FakeKube();
      const provider = makeProvider();
      const pod = testPod('p2');
      await provider.createPod(new AbortController().signal, pod);
      const stored = kube.seed('pods', { ...pod, status: provider.pods.get('default/p2')?.status });
      kube.put('pods', {
        ...stored,
        metadata: {
          ...stored.metadata,
          deletionTimestamp: new Date(Date.now() + 30_000).toISOString(),
          deletionGracePeriodSeconds: 30,
        },
      });
      const h = await startHarness(provider, { kube });
      await advanceUntil(h.clock, () => get(h, 'p2') === undefined);
      expect(provider.pods.has('default/p2')).toBe(false);
      await stopHarness(h);
    });

    it('TestPodLifecycle/failedPodScenario and succeededPodScenario: terminal pods are never changed', async () => {
      const provider = makeProvider();
      const h = await startHarness(provider);
      for (const phase of ['Failed', 'Succeeded'] as const) {
        await createPod(h, { ...testPod(`t-${phase}`), status: { phase } });
      }
      await advance(h.clock, 6_000, 50);
      expect(provider.calls).toEqual([]);
      expect(h.kube.actions.filter((a) => a.verb !== 'create')).toEqual([]);
      await stopHarness(h);
    });

    it('TestPodLifecycle/providerDeleteNotFound: the pod is removed from the API', async () => {
      const provider = makeProvider();
      const h = await startHarness(provider);
      await createPod(h, testPod('p3'));
      await advanceUntil(h.clock, () => get(h, 'p3')?.status?.phase === 'Running');
      provider.pods.delete('default/p3');
      await h.kube.deleteNamespacedPod({
        name: 'p3',
        namespace: 'default',
        gracePeriodSeconds: 10,
      });
      await advanceUntil(h.clock, () => get(h, 'p3') === undefined);
      await stopHarness(h);
    });

    it('TestPodLifecycle/failedDelete: a provider delete that keeps failing is retried and the pod keeps its deletionTimestamp', async () => {
      const provider = makeProvider();
      const h = await startHarness(provider);
      await createPod(h, testPod('p4'));
      await advanceUntil(h.clock, () => get(h, 'p4')?.status?.phase === 'Running');
      provider.deleteError = new Error('backend refuses');
      await h.kube.deleteNamespacedPod({
        name: 'p4',
        namespace: 'default',
        gracePeriodSeconds: 300,
      });
      await advanceUntil(
        h.clock,
        () => provider.calls.filter((c) => c.op === 'delete').length >= 2,
      );
      expect(get(h, 'p4')?.metadata?.deletionTimestamp).toBeDefined();
      expect(h.recorder.events.some((e) => e.startsWith('Warning ProviderDeleteFailed'))).toBe(
        true,
      );
      await stopHarness(h);
    });

    it('TestPodLifecycle/updatePodWhileRunningScenario: activeDeadlineSeconds on a running pod calls UpdatePod', async () => {
      const provider = makeProvider();
      const h = await startHarness(provider);
      await createPod(h, testPod('p5'));
      await advanceUntil(h.clock, () => get(h, 'p5')?.status?.phase === 'Running');
      const pod = get(h, 'p5') as Wire<V1Pod>;
      h.kube.put('pods', {
        ...pod,
        spec: { ...pod.spec, containers: pod.spec?.containers ?? [], activeDeadlineSeconds: 60 },
      });
      await advanceUntil(h.clock, () => provider.calls.some((c) => c.op === 'update'));
      expect(provider.calls.find((c) => c.op === 'update')?.pod.spec?.activeDeadlineSeconds).toBe(
        60,
      );
      await stopHarness(h);
    });
  });
}

describe('createOrUpdatePod', () => {
  it('TestPodCreateNewPod / TestPodUpdateExisting / TestPodNoSpecChange: 1 create, 1 update on an image change, nothing for the same spec', async () => {
    const provider = new NotifyingMemoryProvider();
    const h = await startHarness(provider);
    await createPod(
      h,
      testPod('a', {
        containers: [
          {
            name: 'c',
            image: 'nginx:1',
            env: [
              { name: 'B', value: '2' },
              { name: 'A', value: '1' },
            ],
          },
        ],
      }),
    );
    await advanceUntil(h.clock, () => get(h, 'a')?.status?.phase === 'Running');
    expect(provider.calls.map((c) => c.op)).toEqual(['create']);
    expect(provider.calls[0]?.pod.spec?.containers[0]?.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);

    let pod = get(h, 'a') as Wire<V1Pod>;
    const c0 = pod.spec?.containers[0];
    h.kube.put('pods', {
      ...pod,
      metadata: { ...pod.metadata, labels: { x: 'y' } },
      spec: {
        ...pod.spec,
        containers: [{ ...c0, name: 'c', env: [...(c0?.env ?? [])].reverse() }],
      },
    });
    await advanceUntil(h.clock, () => provider.calls.length === 2);
    expect(provider.calls[1]?.op).toBe('update');

    pod = get(h, 'a') as Wire<V1Pod>;
    h.kube.put('pods', {
      ...pod,
      spec: { ...pod.spec, containers: [{ name: 'c', image: 'nginx:2', env: c0?.env }] },
    });
    await advanceUntil(h.clock, () => provider.calls.length === 3);
    expect(provider.calls[2]?.op).toBe('update');
    expect(provider.calls[2]?.pod.spec?.containers[0]?.image).toBe('nginx:2');

    // a status-only change is not synced to the provider
    pod = get(h, 'a') as Wire<V1Pod>;
    h.kube.put('pods', { ...pod, status: { ...pod.status, message: 'status only' } });
    await advance(h.clock, 500, 10);
    expect(provider.calls.length).toBe(3);
    await stopHarness(h);
  });

  it('SkipDownwardAPIResolution passes fieldRef env to the provider as is', async () => {
    const provider = new NotifyingMemoryProvider();
    const h = await startHarness(provider, { config: { skipDownwardAPIResolution: true } });
    const env = [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }];
    await createPod(h, testPod('s', { containers: [{ name: 'c', image: 'i', env }] }));
    await advanceUntil(h.clock, () => provider.calls.length === 1);
    expect(provider.calls[0]?.pod.spec?.containers[0]?.env).toEqual(env);
    await stopHarness(h);
  });

  it('resolves fieldRef env without SkipDownwardAPIResolution', async () => {
    const provider = new NotifyingMemoryProvider();
    const h = await startHarness(provider);
    const env = [
      { name: 'NODE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
    ];
    await createPod(h, testPod('r', { containers: [{ name: 'c', image: 'i', env }] }));
    await advanceUntil(h.clock, () => provider.calls.length === 1);
    expect(provider.calls[0]?.pod.spec?.containers[0]?.env).toContainEqual({
      name: 'NODE',
      value: 'vk',
    });
    await stopHarness(h);
  });

  it('a provider create failure sets ProviderFailed (Pending, Failed with restartPolicy Never) and a ProviderCreateFailed event', async () => {
    const provider = new NotifyingMemoryProvider();
    provider.createError = new Error('no capacity');
    const h = await startHarness(provider);
    await createPod(h, testPod('f1'));
    await createPod(h, testPod('f2', { restartPolicy: 'Never' }));
    await advanceUntil(
      h.clock,
      () =>
        get(h, 'f1')?.status?.reason === 'ProviderFailed' &&
        get(h, 'f2')?.status?.reason === 'ProviderFailed',
    );
    expect(get(h, 'f1')?.status).toMatchObject({ phase: 'Pending', message: 'no capacity' });
    expect(get(h, 'f2')?.status).toMatchObject({ phase: 'Failed', message: 'no capacity' });
    expect(h.recorder.events).toContain('Warning ProviderCreateFailed no capacity');
    await stopHarness(h);
  });

  it('a provider call that hangs past providerTimeoutMs is abandoned (its signal aborted with ProviderTimeoutError), marked ProviderFailed and retried', async () => {
    // The first createPod never returns on its own; the next ones succeed.
    class HangingOnceProvider extends NotifyingMemoryProvider {
      hung: AbortSignal | undefined;
      override async createPod(signal: AbortSignal, pod: Wire<V1Pod>): Promise<void> {
        if (this.hung === undefined) {
          this.hung = signal;
          await new Promise<never>(() => {});
        }
        return super.createPod(signal, pod);
      }
    }
    const provider = new HangingOnceProvider();
    const h = await startHarness(provider, { config: { providerTimeoutMs: 5_000 } });
    await createPod(h, testPod('h1'));
    await advanceUntil(h.clock, () => get(h, 'h1')?.status?.reason === 'ProviderFailed');
    expect(ProviderTimeoutError.isInstance(provider.hung?.reason)).toBe(true);
    expect(get(h, 'h1')?.status).toMatchObject({
      phase: 'Pending',
      message: 'provider createPod did not return within 5000 ms',
    });
    expect(h.recorder.events).toContain(
      'Warning ProviderCreateFailed provider createPod did not return within 5000 ms',
    );
    await advanceUntil(h.clock, () => get(h, 'h1')?.status?.phase === 'Running');
    await stopHarness(h);
  });

  it('rejects a providerTimeoutMs that is not a positive number of ms, naming the field', async () => {
    for (const providerTimeoutMs of [0, -1, Number.NaN]) {
      const error = await startHarness(new MemoryProvider(), {
        config: { providerTimeoutMs },
      }).catch((e: unknown) => e);
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).field).toBe('providerTimeoutMs');
    }
  });

  it('a sync that always fails is tried MaxRetries (20) times, then dropped', async () => {
    const provider = new NotifyingMemoryProvider();
    provider.createError = new Error('always');
    const h = await startHarness(provider);
    await createPod(h, testPod('m', { restartPolicy: 'Always' }));
    await advanceUntil(h.clock, () => provider.calls.length >= 20, 600_000, 100);
    await advance(h.clock, 20_000, 100);
    expect(provider.calls.length).toBe(20);
    await stopHarness(h);
  });
});

describe('updatePodStatus and the delete queue', () => {
  it('TestUpdatePodStatus sends the API resourceVersion, never the provider one', async () => {
    const provider = new NotifyingMemoryProvider();
    const h = await startHarness(provider);
    await createPod(h, testPod('u'));
    await advanceUntil(h.clock, () => get(h, 'u')?.status?.phase === 'Running');
    const write = h.kube.actions.find((a) => a.subresource === 'status');
    const sent = (write?.body as Wire<V1Pod> | undefined)?.metadata?.resourceVersion;
    expect(sent).toMatch(/^\d+$/);
    expect(sent).not.toBe('0');
    await stopHarness(h);
  });

  it('TestUpdatePodStatus: a provider pod marked for deletion deletes the API pod with its grace period', async () => {
    const provider = new NotifyingMemoryProvider();
    const h = await startHarness(provider);
    await createPod(h, testPod('d'));
    await advanceUntil(h.clock, () => get(h, 'd')?.status?.phase === 'Running');
    const running = provider.pods.get('default/d') as Wire<V1Pod>;
    const deleting = structuredClone(running);
    deleting.status = get(h, 'd')?.status;
    deleting.metadata = {
      ...deleting.metadata,
      deletionTimestamp: new Date(Date.now() + 30_000).toISOString(),
      deletionGracePeriodSeconds: 30,
    };
    (provider as unknown as { notify: (p: Wire<V1Pod>) => void }).notify(deleting);
    await advanceUntil(h.clock, () => get(h, 'd')?.metadata?.deletionTimestamp !== undefined);
    expect(h.kube.actions.find((a) => a.verb === 'delete')?.gracePeriodSeconds).toBe(30);
    await stopHarness(h);
  });

  it('TestDeleteQueue: Conflict and NotFound on the force delete are done; a pod re-created with another UID is left alone', async () => {
    const provider = new NotifyingMemoryProvider();
    const h = await startHarness(provider);
    await createPod(h, testPod('q'));
    await advanceUntil(h.clock, () => get(h, 'q')?.status?.phase === 'Running');
    let conflicts = 0;
    h.kube.prependReactor((a) => {
      if (a.verb === 'delete' && a.gracePeriodSeconds === 0) {
        conflicts++;
        throw apiError(409, 'conflict');
      }
      return undefined;
    });
    await h.kube.deleteNamespacedPod({ name: 'q', namespace: 'default', gracePeriodSeconds: 1 });
    await advanceUntil(h.clock, () => conflicts >= 1);
    await advance(h.clock, 3_000, 50);
    // a Conflict is final for that key: no retries (the default policy would retry 20 times)
    const settled = conflicts;
    expect(settled).toBeLessThanOrEqual(3);
    await advance(h.clock, 5_000, 50);
    expect(conflicts).toBe(settled);
    expect(get(h, 'q')).toBeDefined();

    const uid = get(h, 'q')?.metadata?.uid;
    h.controller.deletePodsFromKubernetesEnqueue(`default/q/other-${uid}`);
    await advance(h.clock, 500, 10);
    expect(conflicts).toBe(settled);
    await stopHarness(h);
  });

  it('TestPodEventFilter: the filter runs for create, update and delete', async () => {
    const seen: string[] = [];
    const provider = new NotifyingMemoryProvider();
    const h = await startHarness(provider, {
      config: {
        podEventFilterFunc: (_s, pod) => {
          seen.push(pod.metadata?.name ?? '');
          return true;
        },
      },
    });
    await createPod(h, testPod('e'));
    await advanceUntil(h.clock, () => get(h, 'e')?.status?.phase === 'Running');
    h.kube.remove('pods', 'default', 'e');
    await advanceUntil(h.clock, () => seen.length >= 3);
    expect(seen.every((n) => n === 'e')).toBe(true);
    await stopHarness(h);
  });

  it('TestPodControllerExitOnContextCancel: run resolves after the signal aborts', async () => {
    const h = await startHarness(new NotifyingMemoryProvider());
    h.abort.abort();
    await expect(h.run).resolves.toBeUndefined();
    await h.controller.done;
    expect(h.controller.err).toBeUndefined();
    h.informers.abort();
  });

  it('storePod, loadPod, checkAndUpdatePod and deletePod manage the known-pod records', async () => {
    const h = await startHarness(new NotifyingMemoryProvider());
    const pod = testPod('k');
    h.controller.storePod('default/k', pod);
    const record = h.controller.loadPod('default/k');
    expect(record?.lastPodStatusReceivedFromProvider).toEqual(pod);
    const newer = { ...pod, status: { phase: 'Running' } };
    h.controller.checkAndUpdatePod('default/k', record as never, newer);
    expect(
      h.controller.loadPod('default/k')?.lastPodStatusReceivedFromProvider?.status?.phase,
    ).toBe('Running');
    h.controller.deletePod('default/k');
    expect(h.controller.loadPod('default/k')).toBeUndefined();
    await stopHarness(h);
  });

  it('run rejects 0 workers', async () => {
    const h = await startHarness(new NotifyingMemoryProvider());
    const other = new PodController({
      podClient: h.kube,
      eventRecorder: h.recorder,
      podInformer: { indexer: {} } as never,
      configMapInformer: { indexer: {} } as never,
      secretInformer: { indexer: {} } as never,
      serviceInformer: { indexer: {} } as never,
      provider: new MemoryProvider(),
    });
    await expect(other.run(new AbortController().signal, 0)).rejects.toThrow(InvalidArgumentError);
    await stopHarness(h);
  });
});
