import type { KubeObject, Wire } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { JsonPatchOperation, ObjectWriter } from '../apply/object-writer.js';
import { TerminalError } from '../controller/terminal-error.js';
import { finalizer } from './finalizer.js';
import { FinalizerError } from './finalizer-error.js';
import { addFinalizer, containsFinalizer, removeFinalizer } from './finalizers.js';

const name = 'example.com/cleanup';

/** Records the JSON patches asked of it; fails them while `failWith` is set. */
class RecordingWriter implements ObjectWriter {
  readonly patches: JsonPatchOperation[][] = [];
  failWith: unknown;
  async jsonPatch<T extends KubeObject>(
    target: KubeObject,
    operations: readonly JsonPatchOperation[],
  ): Promise<Wire<T>> {
    this.patches.push([...operations]);
    if (this.failWith !== undefined) throw this.failWith;
    return { ...target, metadata: { ...target.metadata, resourceVersion: 'patched' } } as Wire<T>;
  }
  patchObject<T extends KubeObject>(): Promise<Wire<T>> {
    throw new Error('not used by finalizers');
  }
}

const object = (finalizers?: string[], deleting = false): V1ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'cm',
    namespace: 'ns',
    ...(finalizers !== undefined && { finalizers }),
    ...(deleting && { deletionTimestamp: new Date(0) }),
  },
});

describe('finalizer', () => {
  it('adds the finalizer (test: absent) before any apply, and applies nothing yet', async () => {
    const writer = new RecordingWriter();
    const events: string[] = [];
    const result = await finalizer(writer, name, object(), (e) => void events.push(e.type));
    expect(result).toBeUndefined();
    expect(events).toEqual([]);
    expect(writer.patches).toEqual([
      [
        { op: 'test', path: '/metadata/finalizers', value: null },
        { op: 'add', path: '/metadata/finalizers', value: [name] },
      ],
    ]);
  });

  it("appends to other controllers' finalizers, testing the whole list first (no duplicates)", async () => {
    const writer = new RecordingWriter();
    await finalizer(writer, name, object(['other.io/x']), () => undefined);
    expect(writer.patches).toEqual([
      [
        { op: 'test', path: '/metadata/finalizers', value: ['other.io/x'] },
        { op: 'add', path: '/metadata/finalizers/-', value: name },
      ],
    ]);
  });

  it('applies when the finalizer is there, and returns what apply returned, without writing', async () => {
    const writer = new RecordingWriter();
    const result = await finalizer(writer, name, object([name]), (e) => ({
      requeueAfterMs: e.type === 'Apply' ? 1000 : 0,
    }));
    expect(result).toEqual({ requeueAfterMs: 1000 });
    expect(writer.patches).toEqual([]);
  });

  it('cleans up a deleting object, then removes only its own finalizer, tested at its index', async () => {
    const writer = new RecordingWriter();
    const events: Array<{ type: string; object: V1ConfigMap }> = [];
    const deleting = object(['other.io/x', name], true);
    await finalizer(writer, name, deleting, (e) => void events.push(e));
    expect(events).toEqual([{ type: 'Cleanup', object: deleting }]);
    expect(writer.patches).toEqual([
      [
        { op: 'test', path: '/metadata/finalizers/1', value: name },
        { op: 'remove', path: '/metadata/finalizers/1' },
      ],
    ]);
  });

  it('keeps the finalizer when cleanup fails (CleanupFailed), so cleanup runs again', async () => {
    const writer = new RecordingWriter();
    const boom = new Error('cloud API down');
    const error = await finalizer(writer, name, object([name], true), () => {
      throw boom;
    }).catch((e: unknown) => e);
    expect(FinalizerError.isInstance(error)).toBe(true);
    expect((error as FinalizerError).reason).toBe('CleanupFailed');
    expect((error as FinalizerError).cause).toBe(boom);
    expect(writer.patches).toEqual([]);
  });

  it('does nothing for a deleting object without the finalizer (no cleanup, no second removal)', async () => {
    const writer = new RecordingWriter();
    const events: string[] = [];
    const result = await finalizer(writer, name, object(['other.io/x'], true), (e) => {
      events.push(e.type);
    });
    expect(result).toBeUndefined();
    expect(events).toEqual([]);
    expect(writer.patches).toEqual([]);
  });

  it('never runs apply on a deleting object that never got the finalizer', async () => {
    const writer = new RecordingWriter();
    let called = false;
    await finalizer(writer, name, object(undefined, true), () => {
      called = true;
    });
    expect(called).toBe(false);
    expect(writer.patches).toEqual([]);
  });

  it('reports failed patches as AddFinalizerFailed / RemoveFinalizerFailed with the API error', async () => {
    const writer = new RecordingWriter();
    writer.failWith = Object.assign(new Error('conflict'), { code: 422 });
    const add = await finalizer(writer, name, object(), () => undefined).catch((e: unknown) => e);
    expect((add as FinalizerError).reason).toBe('AddFinalizerFailed');
    expect((add as FinalizerError).cause).toBe(writer.failWith);
    const remove = await finalizer(writer, name, object([name], true), () => undefined).catch(
      (e: unknown) => e,
    );
    expect((remove as FinalizerError).reason).toBe('RemoveFinalizerFailed');
  });

  it('wraps apply errors as ApplyFailed, but rethrows a TerminalError as it is', async () => {
    const writer = new RecordingWriter();
    const applyFailed = await finalizer(writer, name, object([name]), () => {
      throw new Error('no');
    }).catch((e: unknown) => e);
    expect((applyFailed as FinalizerError).reason).toBe('ApplyFailed');
    const terminal = new TerminalError('spec invalid');
    await expect(
      finalizer(writer, name, object([name]), () => {
        throw terminal;
      }),
    ).rejects.toBe(terminal);
  });

  it('refuses an unnamed object (UnnamedObject) and a malformed finalizer name', async () => {
    const writer = new RecordingWriter();
    const unnamed = await finalizer(writer, name, { metadata: {} }, () => undefined).catch(
      (e: unknown) => e,
    );
    expect((unnamed as FinalizerError).reason).toBe('UnnamedObject');
    await expect(finalizer(writer, 'Not A Name', object(), () => undefined)).rejects.toSatisfy(
      (e) => InvalidArgumentError.isInstance(e) && e.field === 'finalizer',
    );
    const listed = { metadata: { name: 'cm', namespace: 'ns' } }; // from a LIST: no kind
    await expect(finalizer(writer, name, listed, () => undefined)).rejects.toSatisfy(
      (e) => InvalidArgumentError.isInstance(e) && e.field === 'object.apiVersion',
    );
    expect(writer.patches).toEqual([]);
  });
});

describe('addFinalizer / removeFinalizer', () => {
  it('patch only when needed, and return the patched object', async () => {
    const writer = new RecordingWriter();
    const plain = object();
    const added = await addFinalizer(writer, plain, name);
    expect(added.metadata?.resourceVersion).toBe('patched');
    const already = object([name]);
    expect(await addFinalizer(writer, already, name)).toBe(already);
    expect(await removeFinalizer(writer, plain, name)).toBe(plain);
    await removeFinalizer(writer, object(['a.io/b', name]), name);
    expect(writer.patches).toEqual([
      [
        { op: 'test', path: '/metadata/finalizers', value: null },
        { op: 'add', path: '/metadata/finalizers', value: [name] },
      ],
      [
        { op: 'test', path: '/metadata/finalizers/1', value: name },
        { op: 'remove', path: '/metadata/finalizers/1' },
      ],
    ]);
  });

  it('containsFinalizer reads the object', () => {
    expect(containsFinalizer(object([name]), name)).toBe(true);
    expect(containsFinalizer(object(), name)).toBe(false);
  });
});
