import { InvalidArgumentError } from '@ctrlkit/core';
import type { TrackedInformer } from '@ctrlkit/runtime/manager';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { startController } from './controller.js';
import type { Options } from './controller-options.js';

const kubeConfig = new KubeConfig();
kubeConfig.loadFromOptions({
  clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
  users: [{ name: 'u' }],
  contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
  currentContext: 'x',
});

async function rejection(options: Partial<Options>): Promise<InvalidArgumentError> {
  const error = await startController(options as Options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(InvalidArgumentError.isInstance(error)).toBe(true);
  return error as InvalidArgumentError;
}

describe('startController options', () => {
  it('rejects a missing client or driver name, naming the option', async () => {
    expect((await rejection({ driverName: 'd' })).field).toBe('kubeClient');
    expect((await rejection({ kubeClient: kubeConfig })).field).toBe('driverName');
    expect((await rejection({ kubeClient: kubeConfig, driverName: '' })).message).toContain(
      'DRA driver name is empty',
    );
    expect((await rejection({ kubeClient: kubeConfig, driverName: 'Not_A_Name' })).field).toBe(
      'driverName',
    );
  });

  it('rejects negative durations, bad owners, unknown options', async () => {
    const base = { kubeClient: kubeConfig, driverName: 'gpu.example.com' };
    expect((await rejection({ ...base, syncDelayMs: -1 })).field).toBe('syncDelayMs');
    expect((await rejection({ ...base, mutationCacheTTLMs: Number.NaN })).field).toBe(
      'mutationCacheTTLMs',
    );
    expect(
      (await rejection({ ...base, owner: { apiVersion: 'v1', kind: 'Node', name: '' } })).field,
    ).toBe('owner.name');
    expect((await rejection({ ...base, extra: 1 } as Partial<Options>)).field).toBe('extra');
    expect((await rejection({ ...base, queue: {} as Options['queue'] })).field).toBe('queue');
    expect((await rejection({ ...base, informerTracker: {} as never })).field).toBe(
      'informerTracker',
    );
  });

  it('rejects the old option names, naming the new ones', async () => {
    const base = { kubeClient: kubeConfig, driverName: 'gpu.example.com' };
    const old = (extra: object) => rejection({ ...base, ...extra } as Partial<Options>);
    expect((await old({ syncDelay: 0 })).message).toBe('invalid syncDelay: renamed to syncDelayMs');
    expect((await old({ mutationCacheTTL: 1_000 })).message).toBe(
      'invalid mutationCacheTTL: renamed to mutationCacheTTLMs',
    );
  });

  it('rejects with the abort reason when stopped before the informer synced', async () => {
    const abort = new AbortController();
    const started = startController({
      kubeClient: kubeConfig,
      driverName: 'gpu.example.com',
      signal: abort.signal,
    });
    abort.abort(new Error('shutting down'));
    await expect(started).rejects.toThrow('sync ResourceSlice informer: shutting down');
  });

  it('reports its informer to informerTracker (the Manager) from the start until it stopped', async () => {
    const tracked = new Set<TrackedInformer>();
    const informerTracker = {
      trackInformer(informer: TrackedInformer) {
        tracked.add(informer);
        return () => tracked.delete(informer);
      },
    };
    const abort = new AbortController();
    const started = startController({
      kubeClient: kubeConfig,
      driverName: 'gpu.example.com',
      owner: { apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'u1' },
      signal: abort.signal,
      informerTracker,
    });
    const [informer] = [...tracked];
    expect(informer?.name).toBe(
      'resource.k8s.io/v1/resourceslices (fields spec.driver=gpu.example.com,spec.nodeName=node-1)',
    );
    // The apiserver is unreachable: the informer has no watch, and says so.
    expect(informer?.health()).toMatchObject({ state: 'listing' });
    expect(informer?.health().unwatchedSinceMs).toBeTypeOf('number');
    abort.abort(new Error('shutting down'));
    await expect(started).rejects.toThrow('sync ResourceSlice informer: shutting down');
    expect(tracked.size).toBe(0);
  });
});
