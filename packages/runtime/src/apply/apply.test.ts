import type { KubeObject, Wire } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import { PatchStrategy, type V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { apply, applyStatus } from './apply.js';
import type { ObjectWriter, PatchRequest } from './object-writer.js';
import { patchStatus } from './patch-status.js';

/** Records the patches asked of it. */
class RecordingWriter implements ObjectWriter {
  readonly requests: Array<{ body: KubeObject; strategy: string; request: PatchRequest }> = [];
  jsonPatch<T extends KubeObject>(): Promise<Wire<T>> {
    throw new Error('not used');
  }
  async patchObject<T extends KubeObject>(
    body: KubeObject,
    strategy: string,
    request: PatchRequest = {},
  ): Promise<Wire<T>> {
    this.requests.push({ body, strategy, request });
    return body as Wire<T>;
  }
}

const cm: V1ConfigMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'ns', resourceVersion: '7' },
  data: { a: '1' },
};

describe('apply', () => {
  it('sends a server-side apply with the field manager, force and dry run as asked', async () => {
    const writer = new RecordingWriter();
    await apply(writer, cm, { fieldManager: 'ctrl' });
    await apply(writer, cm, { fieldManager: 'ctrl', force: true, dryRun: true });
    await applyStatus(writer, cm, { fieldManager: 'ctrl', force: true });
    expect(writer.requests.map((r) => [r.strategy, r.request])).toEqual([
      [PatchStrategy.ServerSideApply, { fieldManager: 'ctrl' }],
      [PatchStrategy.ServerSideApply, { fieldManager: 'ctrl', force: true, dryRun: 'All' }],
      [PatchStrategy.ServerSideApply, { fieldManager: 'ctrl', force: true, subresource: 'status' }],
    ]);
  });

  it.each([
    ['fieldManager', cm, { fieldManager: '' }],
    ['fieldManager', cm, { fieldManager: 'x'.repeat(129) }],
    ['fieldManager', cm, {}],
    ['force', cm, { fieldManager: 'ctrl', force: 'yes' }],
    ['object.kind', { ...cm, kind: undefined }, { fieldManager: 'ctrl' }],
    ['object.metadata.name', { ...cm, metadata: {} }, { fieldManager: 'ctrl' }],
  ])('rejects a missing or invalid %s', async (field, object, options) => {
    const writer = new RecordingWriter();
    let error: unknown;
    try {
      await apply(writer, object as V1ConfigMap, options as never);
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).field).toBe(field);
    expect(writer.requests).toEqual([]);
  });
});

describe('patchStatus', () => {
  it('merge-patches the status subresource, with the resourceVersion only under optimisticLock', async () => {
    const writer = new RecordingWriter();
    await patchStatus(writer, cm, { phase: 'Ready' });
    await patchStatus(
      writer,
      cm,
      { phase: 'Done' },
      { optimisticLock: true, fieldManager: 'ctrl' },
    );
    expect(writer.requests).toEqual([
      {
        strategy: PatchStrategy.MergePatch,
        request: { subresource: 'status' },
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'cm', namespace: 'ns' },
          status: { phase: 'Ready' },
        },
      },
      {
        strategy: PatchStrategy.MergePatch,
        request: { subresource: 'status', fieldManager: 'ctrl' },
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'cm', namespace: 'ns', resourceVersion: '7' },
          status: { phase: 'Done' },
        },
      },
    ]);
  });

  it('rejects a status that is not an object, and optimisticLock without a resourceVersion', () => {
    const writer = new RecordingWriter();
    expect(() => patchStatus(writer, cm, [] as never)).toThrow(/invalid status/);
    expect(() =>
      patchStatus(writer, { ...cm, metadata: { name: 'cm' } }, {}, { optimisticLock: true }),
    ).toThrow(/resourceVersion/);
  });
});
