import { InvalidArgumentError } from '@ctrlkit/core';
import type { KubernetesObject, V1OwnerReference } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';
import { getControllerOf, isControlledBy, newControllerRef } from './controller-ref.js';
import { ControllerRefError } from './controller-ref-error.js';
import {
  ControllerRefManager,
  type MergePatcher,
  recheckDeletionTimestamp,
} from './controller-ref-manager.js';

const vmKind = { group: 'kubevirt.io', version: 'v1', kind: 'VirtualMachine' };

function controller(deleting = false, uid = 'vm-uid'): KubernetesObject {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: {
      name: 'vm',
      namespace: 'default',
      uid,
      ...(deleting ? { deletionTimestamp: new Date('2026-01-01T00:00:00Z') } : {}),
    },
  };
}

let n = 0;
function vmi(
  labels: Record<string, string>,
  options: { owner?: string; deleting?: boolean } = {},
): KubernetesObject {
  const ownerReferences: V1OwnerReference[] | undefined = options.owner
    ? [
        {
          apiVersion: 'kubevirt.io/v1',
          kind: 'VirtualMachine',
          name: 'vm',
          uid: options.owner,
          controller: true,
        },
      ]
    : undefined;
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: {
      name: `vmi-${n}`,
      namespace: 'default',
      uid: `vmi-uid-${n++}`,
      resourceVersion: '1',
      labels,
      ...(ownerReferences ? { ownerReferences } : {}),
      ...(options.deleting ? { deletionTimestamp: new Date() } : {}),
    },
  };
}

class FakePatcher implements MergePatcher {
  readonly patches: { name: string | undefined; patch: unknown }[] = [];
  failWith: unknown;
  async mergePatch(target: KubernetesObject, patch: object): Promise<void> {
    if (this.failWith !== undefined) throw this.failWith;
    this.patches.push({ name: target.metadata?.name, patch });
  }
}

function manager(options: { deleting?: boolean; canAdopt?: () => Promise<void> } = {}) {
  const patcher = new FakePatcher();
  const m = new ControllerRefManager({
    controller: controller(options.deleting),
    controllerKind: vmKind,
    selector: { matchLabels: { type: 'production' } },
    canAdopt: options.canAdopt ?? (async () => {}),
    patcher,
  });
  return { m, patcher };
}

describe('controller references', () => {
  it('getControllerOf returns the ownerReference with controller: true', () => {
    const obj = vmi({}, { owner: 'x' });
    obj.metadata!.ownerReferences!.unshift({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'c',
      uid: 'c',
    });
    expect(getControllerOf(obj)?.uid).toBe('x');
    expect(getControllerOf(vmi({}))).toBeUndefined();
    expect(isControlledBy(obj, controller(false, 'x'))).toBe(true);
    expect(isControlledBy(obj, controller(false, 'y'))).toBe(false);
  });

  it('newControllerRef sets controller and blockOwnerDeletion', () => {
    expect(newControllerRef(controller(), vmKind)).toEqual({
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      name: 'vm',
      uid: 'vm-uid',
      controller: true,
      blockOwnerDeletion: true,
    });
    expect(
      newControllerRef(controller(), { group: '', version: 'v1', kind: 'Pod' }).apiVersion,
    ).toBe('v1');
    expect(() => newControllerRef({ metadata: { name: 'x' } }, vmKind)).toThrow(/uid/);
  });
});

// KubeVirt controller_ref_manager_test.go: claim VMIs with selector type=production.
describe('ControllerRefManager.claimObjects (KubeVirt scenarios)', () => {
  it('claims (adopts) an orphan with the production label, not one with the testing label', async () => {
    const { m, patcher } = manager();
    const prod = vmi({ type: 'production' });
    const test = vmi({ type: 'testing' });
    expect(await m.claimObjects([prod, test])).toEqual([prod]);
    expect(patcher.patches).toHaveLength(1);
    expect(patcher.patches[0]!.name).toBe(prod.metadata!.name);
    expect(patcher.patches[0]!.patch).toEqual({
      metadata: {
        uid: prod.metadata!.uid,
        resourceVersion: '1',
        ownerReferences: [newControllerRef(controller(), vmKind)],
      },
    });
  });

  it('does not claim orphans while the controller is being deleted', async () => {
    const { m, patcher } = manager({ deleting: true });
    expect(await m.claimObjects([vmi({ type: 'production' })])).toEqual([]);
    expect(patcher.patches).toEqual([]);
  });

  it('still claims an owned matching VMI while the controller is being deleted, but no orphan', async () => {
    const { m, patcher } = manager({ deleting: true });
    const owned = vmi({ type: 'production' }, { owner: 'vm-uid' });
    expect(await m.claimObjects([owned, vmi({ type: 'production' })])).toEqual([owned]);
    expect(patcher.patches).toEqual([]);
  });

  it('does not claim a VMI owned by another controller UID; claims its own', async () => {
    const { m, patcher } = manager();
    const other = vmi({ type: 'production' }, { owner: 'other-uid' });
    const own = vmi({ type: 'production' }, { owner: 'vm-uid' });
    expect(await m.claimObjects([other, own])).toEqual([own]);
    expect(patcher.patches).toEqual([]);
  });

  it('releases an owned VMI whose labels no longer match, and does not claim it', async () => {
    const { m, patcher } = manager();
    const detached = vmi({ type: 'testing' }, { owner: 'vm-uid' });
    detached.metadata!.ownerReferences!.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'keep',
      uid: 'keep',
    });
    expect(await m.claimObjects([detached])).toEqual([]);
    expect(patcher.patches).toEqual([
      {
        name: detached.metadata!.name,
        patch: {
          metadata: {
            uid: detached.metadata!.uid,
            resourceVersion: '1',
            ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'keep', uid: 'keep' }],
          },
        },
      },
    ]);
  });

  it('still claims an owned VMI with a deletionTimestamp; not an orphan with one', async () => {
    const { m, patcher } = manager();
    const owned = vmi({ type: 'production' }, { owner: 'vm-uid', deleting: true });
    const orphan = vmi({ type: 'production' }, { deleting: true });
    expect(await m.claimObjects([owned, orphan])).toEqual([owned]);
    expect(patcher.patches).toEqual([]);
  });

  it('accepts a selector in string form, and null as "nothing"', async () => {
    const patcher = new FakePatcher();
    const base = { controller: controller(), controllerKind: vmKind, canAdopt: () => {}, patcher };
    const byString = new ControllerRefManager({ ...base, selector: 'type in (production)' });
    const prod = vmi({ type: 'production' });
    expect(await byString.claimObjects([prod, vmi({ type: 'testing' })])).toEqual([prod]);
    const none = new ControllerRefManager({ ...base, selector: null });
    expect(await none.claimObjects([vmi({ type: 'production' })])).toEqual([]);
  });

  it('applies extra filters after the selector', async () => {
    const { m } = manager();
    const a = vmi({ type: 'production' });
    const b = vmi({ type: 'production' });
    expect(await m.claimObjects([a, b], (o) => o === b)).toEqual([b]);
  });
});

// KubeVirt: DataVolumes are claimed with a match that is always true.
describe('ControllerRefManager.claimObject with match always true (DataVolume scenarios)', () => {
  const always = () => true;
  const run = async (m: ControllerRefManager, obj: KubernetesObject) =>
    m.claimObject(
      obj,
      always,
      (o) => m.adoptObject(o),
      (o) => m.releaseObject(o),
    );

  it('adopts orphans, but not while the controller is being deleted', async () => {
    expect(await run(manager().m, vmi({}))).toBe(true);
    expect(await run(manager({ deleting: true }).m, vmi({}))).toBe(false);
  });
  it('ignores objects owned by another controller; keeps its own', async () => {
    expect(await run(manager().m, vmi({}, { owner: 'other-uid' }))).toBe(false);
    expect(await run(manager().m, vmi({}, { owner: 'vm-uid' }))).toBe(true);
  });
  it('does not adopt a deleting orphan; keeps a deleting owned one', async () => {
    expect(await run(manager().m, vmi({}, { deleting: true }))).toBe(false);
    expect(await run(manager().m, vmi({}, { owner: 'vm-uid', deleting: true }))).toBe(true);
  });
});

describe('ControllerRefManager decision table (upstream A3)', () => {
  const wanted = () => true;
  const unwanted = () => false;
  const gone = Object.assign(new Error('not found'), { code: 404 });
  const boom = Object.assign(new Error('boom'), { code: 500 });

  it('orphan + match: adopt NotFound -> false without error; other error -> thrown', async () => {
    const { m } = manager();
    expect(await m.claimObject(vmi({}), wanted, () => Promise.reject(gone), vi.fn())).toBe(false);
    await expect(m.claimObject(vmi({}), wanted, () => Promise.reject(boom), vi.fn())).rejects.toBe(
      boom,
    );
  });

  it('owned + not matching: release NotFound -> false; other error -> thrown; success -> false', async () => {
    const { m } = manager();
    const owned = () => vmi({}, { owner: 'vm-uid' });
    expect(await m.claimObject(owned(), unwanted, vi.fn(), () => Promise.reject(gone))).toBe(false);
    await expect(
      m.claimObject(owned(), unwanted, vi.fn(), () => Promise.reject(boom)),
    ).rejects.toBe(boom);
    const release = vi.fn(async () => {});
    expect(await m.claimObject(owned(), unwanted, vi.fn(), release)).toBe(false);
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('owned + not matching while the controller is deleting: no release, false', async () => {
    const { m } = manager({ deleting: true });
    const release = vi.fn(async () => {});
    expect(await m.claimObject(vmi({}, { owner: 'vm-uid' }), unwanted, vi.fn(), release)).toBe(
      false,
    );
    expect(release).not.toHaveBeenCalled();
  });

  it('orphan not matching, or owned by another: nothing done, false', async () => {
    const { m } = manager();
    const adopt = vi.fn(async () => {});
    const release = vi.fn(async () => {});
    expect(await m.claimObject(vmi({}), unwanted, adopt, release)).toBe(false);
    expect(await m.claimObject(vmi({}, { owner: 'x' }), wanted, adopt, release)).toBe(false);
    expect(adopt).not.toHaveBeenCalled();
    expect(release).not.toHaveBeenCalled();
  });

  it('releaseDetachedObject returns whether it is still owned', async () => {
    const { m } = manager();
    const release = vi.fn(async () => {});
    expect(await m.releaseDetachedObject(vmi({}, { owner: 'vm-uid' }), wanted, release)).toBe(true);
    expect(await m.releaseDetachedObject(vmi({}), wanted, release)).toBe(false);
    expect(release).not.toHaveBeenCalled();
    expect(await m.releaseDetachedObject(vmi({}, { owner: 'vm-uid' }), unwanted, release)).toBe(
      false,
    );
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('does not adopt an orphan from another namespace than a namespaced controller', async () => {
    const { m, patcher } = manager();
    const elsewhere = vmi({ type: 'production' });
    elsewhere.metadata!.namespace = 'other';
    expect(await m.claimObjects([elsewhere])).toEqual([]);
    expect(patcher.patches).toEqual([]);
  });

  it('release ignores 404 and 422 from the patch', async () => {
    const { m, patcher } = manager();
    patcher.failWith = Object.assign(new Error('invalid'), { code: 422 });
    await expect(m.releaseObject(vmi({}, { owner: 'vm-uid' }))).resolves.toBeUndefined();
    patcher.failWith = gone;
    await expect(m.releaseObject(vmi({}, { owner: 'vm-uid' }))).resolves.toBeUndefined();
    patcher.failWith = boom;
    await expect(m.releaseObject(vmi({}, { owner: 'vm-uid' }))).rejects.toBe(boom);
  });
});

describe('canAdopt and recheckDeletionTimestamp', () => {
  it('runs canAdopt at most once per manager and caches its error', async () => {
    const canAdopt = vi.fn(async () => {
      throw new Error('nope');
    });
    const { m, patcher } = manager({ canAdopt });
    const error = await m
      .claimObjects([vmi({ type: 'production' }), vmi({ type: 'production' })])
      .catch((e) => e);
    expect(ControllerRefError.isInstance(error)).toBe(true);
    expect(error.reason).toBe('ClaimFailed');
    expect(error.errors).toHaveLength(2);
    expect(error.errors[0].reason).toBe('CannotAdopt');
    expect(error.errors[0].message).toMatch(
      /^can't adopt VirtualMachineInstance default\/vmi-\d+ \(vmi-uid-\d+\): nope$/,
    );
    expect(canAdopt).toHaveBeenCalledTimes(1);
    expect(patcher.patches).toEqual([]);
  });

  it('runs canAdopt only when adopting (not for owned objects)', async () => {
    const canAdopt = vi.fn(async () => {});
    const { m } = manager({ canAdopt });
    await m.claimObjects([vmi({ type: 'production' }, { owner: 'vm-uid' })]);
    expect(canAdopt).not.toHaveBeenCalled();
    await m.claimObjects([vmi({ type: 'production' }), vmi({ type: 'production' })]);
    expect(canAdopt).toHaveBeenCalledTimes(1);
  });

  it('recheckDeletionTimestamp refuses an owner that has just been deleted', async () => {
    const check = recheckDeletionTimestamp(async () => controller(true));
    const error = await check().catch((e) => e);
    expect(error.reason).toBe('OwnerDeleting');
    expect(error.message).toBe('default/vm has just been deleted at 2026-01-01T00:00:00.000Z');
    await expect(recheckDeletionTimestamp(async () => controller())()).resolves.toBeUndefined();
  });

  it('recheckDeletionTimestamp reports a failed read', async () => {
    const error = await recheckDeletionTimestamp(() =>
      Promise.reject(new Error('timeout')),
    )().catch((e) => e);
    expect(error.reason).toBe('RecheckFailed');
    expect(error.message).toBe("can't recheck DeletionTimestamp: timeout");
  });

  it('rejects a controller without uid, naming the field', () => {
    const make = () =>
      new ControllerRefManager({
        controller: { metadata: { name: 'x' } },
        controllerKind: vmKind,
        selector: {},
        canAdopt: () => {},
      });
    expect(make).toThrow(InvalidArgumentError);
    try {
      make();
    } catch (error) {
      expect((error as InvalidArgumentError).field).toBe('controller.metadata.uid');
    }
  });
});
