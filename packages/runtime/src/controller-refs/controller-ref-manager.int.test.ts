import { createClient, type Wire } from '@ctrlkit/client';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { getControllerOf, isControlledBy } from './controller-ref.js';
import { ControllerRefManager, recheckDeletionTimestamp } from './controller-ref-manager.js';

type ConfigMap = Wire<V1ConfigMap>;

describe('ControllerRefManager against a real apiserver', () => {
  it('adopts orphan ConfigMaps matching the selector and releases those that stop matching', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'cref-');
    const core = createClient(kubeConfig);
    // The owner: a ConfigMap standing in for any controller object.
    const owner = await core.create<V1ConfigMap>(
      'configmaps',
      { metadata: { name: 'owner' } },
      { namespace },
    );
    const make = (name: string, labels: Record<string, string>) =>
      core.create('configmaps', { metadata: { name, labels } }, { namespace });
    await make('wanted-1', { app: 'web' });
    await make('wanted-2', { app: 'web' });
    await make('other', { app: 'db' });
    const list = async (): Promise<ConfigMap[]> =>
      (await core.list<V1ConfigMap>('configmaps', { namespace })).items.filter(
        (c) => c.metadata?.name !== 'owner',
      );

    const newManager = () =>
      new ControllerRefManager<ConfigMap>({
        kubeConfig,
        controller: owner,
        controllerKind: { group: '', version: 'v1', kind: 'ConfigMap' },
        objectType: { apiVersion: 'v1', kind: 'ConfigMap' },
        selector: { matchLabels: { app: 'web' } },
        canAdopt: recheckDeletionTimestamp(() => core.get('configmaps', 'owner', { namespace })),
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
    await core.replace('configmaps', {
      ...afterAdopt.find((c) => c.metadata!.name === 'wanted-2')!,
      metadata: {
        ...afterAdopt.find((c) => c.metadata!.name === 'wanted-2')!.metadata,
        labels: { app: 'retired' },
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
    core.close();
  });

  it('does not adopt when the fresh owner is being deleted', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'cref-');
    const core = createClient(kubeConfig);
    const owner = await core.create<V1ConfigMap>(
      'configmaps',
      { metadata: { name: 'owner', finalizers: ['ctrlkit.dev/hold'] } },
      { namespace },
    );
    await core.create(
      'configmaps',
      { metadata: { name: 'orphan', labels: { app: 'web' } } },
      { namespace },
    );
    // Deleted after our (stale) copy was read: only the fresh read sees the deletionTimestamp.
    await core.delete('configmaps', 'owner', { namespace });
    const manager = new ControllerRefManager<ConfigMap>({
      kubeConfig,
      controller: owner,
      controllerKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      objectType: { apiVersion: 'v1', kind: 'ConfigMap' },
      selector: { matchLabels: { app: 'web' } },
      canAdopt: recheckDeletionTimestamp(() => core.get('configmaps', 'owner', { namespace })),
    });
    const objects = (await core.list<V1ConfigMap>('configmaps', { namespace })).items.filter(
      (c) => c.metadata?.name === 'orphan',
    );
    const error = await manager.claimObjects(objects).catch((e: unknown) => e);
    expect((error as { reason?: string }).reason).toBe('ClaimFailed');
    expect((error as { errors: { reason: string }[] }).errors[0]!.reason).toBe('CannotAdopt');
    const orphan = await core.get<V1ConfigMap>('configmaps', 'orphan', { namespace });
    expect(orphan.metadata!.ownerReferences ?? []).toEqual([]);
    // Let the owner go (best effort: the test namespace is never reused).
    await core
      .patch('configmaps', 'owner', [{ op: 'remove', path: '/metadata/finalizers' }], {
        namespace,
        type: 'json',
      })
      .catch(() => undefined);
    core.close();
  });
});
