import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { getControllerOf, isControlledBy } from './controller-ref.js';
import { ControllerRefManager, recheckDeletionTimestamp } from './controller-ref-manager.js';

describe('ControllerRefManager against a real apiserver', () => {
  it('adopts orphan ConfigMaps matching the selector and releases those that stop matching', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'cref-');
    const core = kubeConfig.makeApiClient(CoreV1Api);
    // The owner: a ConfigMap standing in for any controller object.
    const owner = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'owner' } },
    });
    const make = (name: string, labels: Record<string, string>) =>
      core.createNamespacedConfigMap({ namespace, body: { metadata: { name, labels } } });
    await make('wanted-1', { app: 'web' });
    await make('wanted-2', { app: 'web' });
    await make('other', { app: 'db' });
    const list = async (): Promise<V1ConfigMap[]> =>
      (await core.listNamespacedConfigMap({ namespace })).items.filter(
        (c) => c.metadata?.name !== 'owner',
      );

    const newManager = () =>
      new ControllerRefManager<V1ConfigMap>({
        kubeConfig,
        controller: owner,
        controllerKind: { group: '', version: 'v1', kind: 'ConfigMap' },
        objectType: { apiVersion: 'v1', kind: 'ConfigMap' },
        selector: { matchLabels: { app: 'web' } },
        canAdopt: recheckDeletionTimestamp(() =>
          core.readNamespacedConfigMap({ name: 'owner', namespace }),
        ),
      });

    const claimed = await newManager().claimObjects(await list());
    expect(claimed.map((c) => c.metadata!.name).sort()).toEqual(['wanted-1', 'wanted-2']);
    const afterAdopt = await list();
    for (const cm of afterAdopt) {
      const ref = getControllerOf(cm);
      if (cm.metadata!.name === 'other') expect(ref).toBeUndefined();
      else
        expect(ref).toMatchObject({
          uid: owner.metadata!.uid,
          controller: true,
          blockOwnerDeletion: true,
        });
    }

    // wanted-2 stops matching: the next claim releases it.
    await core.replaceNamespacedConfigMap({
      name: 'wanted-2',
      namespace,
      body: {
        ...afterAdopt.find((c) => c.metadata!.name === 'wanted-2')!,
        metadata: {
          ...afterAdopt.find((c) => c.metadata!.name === 'wanted-2')!.metadata,
          labels: { app: 'retired' },
        },
      },
    });
    const again = await newManager().claimObjects(await list());
    expect(again.map((c) => c.metadata!.name)).toEqual(['wanted-1']);
    const final = await list();
    expect(final.filter((c) => isControlledBy(c, owner)).map((c) => c.metadata!.name)).toEqual([
      'wanted-1',
    ]);
    expect(
      final.find((c) => c.metadata!.name === 'wanted-2')!.metadata!.ownerReferences ?? [],
    ).toEqual([]);
  });

  it('does not adopt when the fresh owner is being deleted', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'cref-');
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const owner = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'owner', finalizers: ['ctrlkit.dev/hold'] } },
    });
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'orphan', labels: { app: 'web' } } },
    });
    // Deleted after our (stale) copy was read: only the fresh read sees the deletionTimestamp.
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace });
    const manager = new ControllerRefManager<V1ConfigMap>({
      kubeConfig,
      controller: owner,
      controllerKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      objectType: { apiVersion: 'v1', kind: 'ConfigMap' },
      selector: { matchLabels: { app: 'web' } },
      canAdopt: recheckDeletionTimestamp(() =>
        core.readNamespacedConfigMap({ name: 'owner', namespace }),
      ),
    });
    const objects = (await core.listNamespacedConfigMap({ namespace })).items.filter(
      (c) => c.metadata?.name === 'orphan',
    );
    const error = await manager.claimObjects(objects).catch((e: unknown) => e);
    expect((error as { reason?: string }).reason).toBe('ClaimFailed');
    expect((error as { errors: { reason: string }[] }).errors[0]!.reason).toBe('CannotAdopt');
    const orphan = await core.readNamespacedConfigMap({ name: 'orphan', namespace });
    expect(orphan.metadata!.ownerReferences ?? []).toEqual([]);
    // Let the owner go (best effort: the test namespace is never reused).
    await core
      .patchNamespacedConfigMap({
        name: 'owner',
        namespace,
        body: [{ op: 'remove', path: '/metadata/finalizers' }],
      })
      .catch(() => undefined);
  });
});
