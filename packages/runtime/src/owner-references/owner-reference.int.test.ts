// Owner references made by the helpers, as the real apiserver stores and validates them.
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import {
  type ApiException,
  CoreV1Api,
  type KubeConfig,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { AlreadyOwnedError } from './already-owned-error.js';
import { setControllerReference, setOwnerReference } from './owner-reference.js';

describe('owner references on a real apiserver', () => {
  let kubeConfig: KubeConfig;
  let core: CoreV1Api;
  let namespace: string;
  beforeAll(async () => {
    kubeConfig = testKubeConfig();
    core = kubeConfig.makeApiClient(CoreV1Api);
    namespace = await createTestNamespace(kubeConfig, 'owners-');
  });

  const owner = async (name: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    ...(await core.createNamespacedConfigMap({ namespace, body: { metadata: { name } } })),
  });

  it('stores the controller reference and a plain owner reference, the garbage collector fields intact', async () => {
    const controller = await owner('controller');
    const other = await owner('other');
    const ns = {
      apiVersion: 'v1',
      kind: 'Namespace',
      ...(await core.readNamespace({ name: namespace })),
    };
    const owned: V1ConfigMap = { metadata: { name: 'owned', namespace } };
    setControllerReference(controller, owned);
    setOwnerReference(other, owned);
    setOwnerReference(ns, owned); // a cluster-scoped owner of a namespaced object
    const stored = await core.createNamespacedConfigMap({ namespace, body: owned });
    expect(stored.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        name: 'controller',
        uid: controller.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: other.metadata?.uid },
      { apiVersion: 'v1', kind: 'Namespace', name: namespace, uid: ns.metadata?.uid },
    ]);
  });

  it('refuses a second controller before the apiserver would (which rejects it too)', async () => {
    const first = await owner('first');
    const second = await owner('second');
    const owned: V1ConfigMap = { metadata: { name: 'contested', namespace } };
    setControllerReference(first, owned);
    expect(() => setControllerReference(second, owned)).toThrow(AlreadyOwnedError);
    // What the check prevents: the apiserver's own validation of two controllers.
    const refs = owned.metadata?.ownerReferences ?? [];
    const body = {
      metadata: {
        name: 'contested',
        namespace,
        ownerReferences: [
          ...refs,
          { ...refs[0], name: 'second', uid: second.metadata?.uid ?? '', controller: true },
        ],
      },
    } as V1ConfigMap;
    const error = await core
      .createNamespacedConfigMap({ namespace, body })
      .catch((e: unknown) => e);
    expect((error as ApiException<unknown>).code).toBe(422);
    const answer = (error as ApiException<unknown>).body;
    expect(typeof answer === 'string' ? answer : JSON.stringify(answer)).toContain(
      'Only one reference can have Controller set to true',
    );
  });
});
