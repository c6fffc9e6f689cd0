import type { InvalidArgumentError } from '@ctrlkit/core';
import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { AlreadyOwnedError } from './already-owned-error.js';
import {
  hasControllerReference,
  hasOwnerReference,
  removeControllerReference,
  removeOwnerReference,
  setControllerReference,
  setOwnerReference,
} from './owner-reference.js';
import { OwnerReferenceError } from './owner-reference-error.js';

const replicaSet = (name = 'rs', namespace: string | undefined = 'ns', uid = `uid-${name}`) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name, uid, ...(namespace !== undefined && { namespace }) },
});
const pod = (namespace: string | undefined = 'ns'): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', ...(namespace !== undefined && { namespace }) },
});

function caught(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('setControllerReference', () => {
  it('adds a controller reference with blockOwnerDeletion (TestSetControllerReference)', () => {
    const object = pod();
    setControllerReference(replicaSet(), object);
    expect(object.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'rs',
        uid: 'uid-rs',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(hasControllerReference(object)).toBe(true);
  });

  it('replaces the reference to the same owner instead of adding a second one', () => {
    const object = pod();
    setOwnerReference(replicaSet(), object);
    setControllerReference({ ...replicaSet(), apiVersion: 'apps/v1beta2' }, object, {
      blockOwnerDeletion: false,
    });
    expect(object.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1beta2',
        kind: 'ReplicaSet',
        name: 'rs',
        uid: 'uid-rs',
        controller: true,
        blockOwnerDeletion: false,
      },
    ]);
  });

  it('refuses a second controller with AlreadyOwnedError, leaving the object alone', () => {
    const object = pod();
    setControllerReference(replicaSet('first'), object);
    const error = caught(() => setControllerReference(replicaSet('second'), object));
    expect(AlreadyOwnedError.isInstance(error)).toBe(true);
    expect((error as AlreadyOwnedError).reason).toBe('AlreadyOwned');
    expect((error as AlreadyOwnedError).owner.name).toBe('first');
    expect((error as Error).message).toBe(
      'Object ns/p is already owned by another ReplicaSet controller first',
    );
    expect(object.metadata?.ownerReferences).toHaveLength(1);
  });

  it('accepts a cluster-scoped owner of a namespaced object', () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'uid-n1' } };
    const object = pod();
    setControllerReference(node, object);
    expect(object.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: 'n1' });
  });

  it('refuses a namespaced owner of a cluster-scoped object', () => {
    const error = caught(() =>
      setControllerReference(replicaSet(), { kind: 'PersistentVolume', metadata: { name: 'pv' } }),
    );
    expect(OwnerReferenceError.isInstance(error)).toBe(true);
    expect((error as OwnerReferenceError).reason).toBe('NamespacedOwnerOfClusterScopedObject');
  });

  it('refuses an owner in another namespace', () => {
    const error = caught(() => setOwnerReference(replicaSet('rs', 'other'), pod('ns')));
    expect((error as OwnerReferenceError).reason).toBe('CrossNamespaceOwner');
    expect((error as Error).message).toBe(
      "cross-namespace owner references are disallowed, owner's namespace other, obj's namespace ns",
    );
  });

  it('needs the owner kind (gvk) when the owner has none, and its name and uid', () => {
    const listed = { metadata: { name: 'rs', namespace: 'ns', uid: 'u' } };
    expect(
      (caught(() => setControllerReference(listed, pod())) as InvalidArgumentError).field,
    ).toBe('gvk');
    const object = pod();
    setControllerReference(listed, object, {
      gvk: { group: 'apps', version: 'v1', kind: 'ReplicaSet' },
    });
    expect(object.metadata?.ownerReferences?.[0]?.apiVersion).toBe('apps/v1');
    const noUid = { ...replicaSet(), metadata: { name: 'rs', namespace: 'ns' } };
    expect((caught(() => setControllerReference(noUid, pod())) as InvalidArgumentError).field).toBe(
      'owner.metadata.uid',
    );
  });
});

describe('setOwnerReference', () => {
  it('adds a non-controller reference next to the controller (TestSetOwnerReference)', () => {
    const object = pod();
    setControllerReference(replicaSet('a'), object);
    setOwnerReference(replicaSet('b'), object);
    expect(object.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ name: 'a', controller: true }),
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: 'uid-b' },
    ]);
    expect(hasOwnerReference(object.metadata?.ownerReferences, replicaSet('b'))).toBe(true);
    expect(hasOwnerReference(object.metadata?.ownerReferences, replicaSet('c'))).toBe(false);
  });
});

describe('removeOwnerReference / removeControllerReference', () => {
  it('remove the matching reference, with named errors when there is none or it is not the controller', () => {
    const object = pod();
    setControllerReference(replicaSet('a'), object);
    setOwnerReference(replicaSet('b'), object);
    expect(
      (caught(() => removeControllerReference(replicaSet('b'), object)) as OwnerReferenceError)
        .reason,
    ).toBe('NotController');
    removeOwnerReference(replicaSet('b'), object);
    expect(
      (caught(() => removeOwnerReference(replicaSet('b'), object)) as OwnerReferenceError).reason,
    ).toBe('NoOwnerReference');
    removeControllerReference(replicaSet('a'), object);
    expect(object.metadata?.ownerReferences).toEqual([]);
    expect(
      (caught(() => removeControllerReference(replicaSet('a'), object)) as OwnerReferenceError)
        .reason,
    ).toBe('NoOwnerReference');
  });
});
