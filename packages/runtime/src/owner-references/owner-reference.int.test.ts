// Owner references made by the helpers, as the real apiserver stores and validates them.

import { ApiStatusError, type Client, createClient } from '@ctrlkit/client';
import { statusCode } from '@ctrlkit/core';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { KubeConfig, V1ConfigMap, V1Namespace } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlreadyOwnedError } from './already-owned-error.js';
import { setControllerReference, setOwnerReference } from './owner-reference.js';

describe('owner references on a real apiserver', () => {
  let kubeConfig: KubeConfig;
  let core: Client;
  let namespace: string;
  beforeAll(async () => {
    kubeConfig = testKubeConfig();
    core = createClient(kubeConfig);
    namespace = await createTestNamespace(kubeConfig, 'owners-');
  });
  afterAll(() => core.close());

  const owner = async (name: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    ...(await core.create<V1ConfigMap>('configmaps', { metadata: { name } }, { namespace })),
  });

  it('stores the controller reference and a plain owner reference, the garbage collector fields intact', async () => {
    const controller = await owner('controller');
    const other = await owner('other');
    const ns = {
      apiVersion: 'v1',
      kind: 'Namespace',
      ...(await core.get<V1Namespace>('namespaces', namespace)),
    };
    const owned: V1ConfigMap = { metadata: { name: 'owned', namespace } };
    setControllerReference(controller, owned);
    setOwnerReference(other, owned);
    setOwnerReference(ns, owned); // a cluster-scoped owner of a namespaced object
    const stored = await core.create('configmaps', owned, { namespace });
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
    const error = await core.create('configmaps', body, { namespace }).catch((e: unknown) => e);
    expect(statusCode(error)).toBe(422);
    const answer = ApiStatusError.isInstance(error) ? error.status : undefined;
    expect(typeof answer === 'string' ? answer : JSON.stringify(answer)).toContain(
      'Only one reference can have Controller set to true',
    );
  });
});
