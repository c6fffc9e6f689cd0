// The finalizer flow against a real apiserver: a real deletion waits for cleanup.

import { ApiStatusError, type Client, createClient, type Wire } from '@ctrlkit/client';
import { statusCode } from '@ctrlkit/core';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { KubeConfig, V1ConfigMap as ModelConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinalizerEvent, finalizer } from './finalizer.js';
import { FinalizerError } from './finalizer-error.js';
import { addFinalizer, removeFinalizer } from './finalizers.js';

const name = 'example.ctrlkit.dev/cleanup';
type V1ConfigMap = Wire<ModelConfigMap>;

describe('finalizer on a real apiserver', () => {
  let kubeConfig: KubeConfig;
  let core: Client;
  let namespace: string;
  beforeAll(async () => {
    kubeConfig = testKubeConfig();
    core = createClient(kubeConfig);
    namespace = await createTestNamespace(kubeConfig, 'finalizer-');
  });
  afterAll(() => core.close());

  const read = async (cmName: string): Promise<V1ConfigMap> => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    ...(await core.get<ModelConfigMap>('configmaps', cmName, { namespace })),
  });
  const create = async (cmName: string, finalizers?: string[]) => {
    await core.create(
      'configmaps',
      { metadata: { name: cmName, ...(finalizers && { finalizers }) } },
      { namespace },
    );
    return read(cmName);
  };

  it('adds, applies, holds the deletion until cleanup succeeded, then lets the object go', async () => {
    const events: string[] = [];
    const reconcile = async (e: FinalizerEvent<V1ConfigMap>) => {
      events.push(e.type);
    };
    await create('flow');
    // 1. no finalizer yet: it is added, nothing applied.
    expect(await finalizer(kubeConfig, name, await read('flow'), reconcile)).toBeUndefined();
    expect((await read('flow')).metadata?.finalizers).toEqual([name]);
    expect(events).toEqual([]);
    // 2. with the finalizer: Apply.
    await finalizer(kubeConfig, name, await read('flow'), reconcile);
    expect(events).toEqual(['Apply']);
    // 3. a real delete: the object stays, with a deletionTimestamp, while the finalizer is there.
    await core.delete('configmaps', 'flow', { namespace });
    const deleting = await read('flow');
    expect(deleting.metadata?.deletionTimestamp).toBeDefined();
    // a failing cleanup keeps the finalizer, and the object.
    const failed = await finalizer(kubeConfig, name, deleting, () => {
      throw new Error('external system down');
    }).catch((e: unknown) => e);
    expect((failed as FinalizerError).reason).toBe('CleanupFailed');
    expect((await read('flow')).metadata?.finalizers).toEqual([name]);
    // 4. cleanup succeeds: the finalizer goes, and with it the object.
    await finalizer(kubeConfig, name, await read('flow'), reconcile);
    expect(events).toEqual(['Apply', 'Cleanup']);
    const gone = await read('flow').catch((e: unknown) => e);
    expect(statusCode(gone)).toBe(404);
  });

  it('removes its finalizer once: a second removal from a stale copy fails and leaves the others', async () => {
    await create('twice', ['other.ctrlkit.dev/keep', name]);
    await core.delete('configmaps', 'twice', { namespace });
    const stale = await read('twice');
    let cleanups = 0;
    await finalizer(kubeConfig, name, stale, () => {
      cleanups++;
    });
    expect((await read('twice')).metadata?.finalizers).toEqual(['other.ctrlkit.dev/keep']);
    // The same stale object again: cleanup is idempotent and runs, but the guarded removal
    // finds another finalizer at that index and fails instead of removing it.
    const again = await finalizer(kubeConfig, name, stale, () => {
      cleanups++;
    }).catch((e: unknown) => e);
    expect(FinalizerError.isInstance(again)).toBe(true);
    expect((again as FinalizerError).reason).toBe('RemoveFinalizerFailed');
    expect(statusCode((again as FinalizerError).cause)).toBe(422);
    expect((await read('twice')).metadata?.finalizers).toEqual(['other.ctrlkit.dev/keep']);
    // A fresh read: nothing left to do.
    await finalizer(kubeConfig, name, await read('twice'), () => {
      cleanups++;
    });
    expect(cleanups).toBe(2);
    await removeFinalizer(kubeConfig, await read('twice'), 'other.ctrlkit.dev/keep');
  });

  it('addFinalizer never duplicates: a stale copy fails the test operation', async () => {
    const stale = await create('dup');
    const added = await addFinalizer(kubeConfig, stale, name);
    expect(added.metadata?.finalizers).toEqual([name]);
    const second = await addFinalizer(kubeConfig, stale, name).catch((e: unknown) => e);
    expect(ApiStatusError.isInstance(second)).toBe(true);
    expect(statusCode(second)).toBe(422);
    expect((await read('dup')).metadata?.finalizers).toEqual([name]);
    const removed = await removeFinalizer(kubeConfig, await read('dup'), name);
    expect(removed.metadata?.finalizers).toBeUndefined();
  });
});
