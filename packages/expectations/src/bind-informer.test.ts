import { describe, expect, it } from 'vitest';
import {
  bindControllerExpectations,
  bindExpectationsStore,
  bindUIDTrackingExpectations,
  type ControlleeEventHandlers,
  type ControlleeObject,
  controllerRefKey,
} from './bind-informer.js';
import { ControllerExpectations } from './controller-expectations.js';
import { ExpectationsStore } from './expectations-store.js';
import { FakeInformer, RecordingLogger } from './testing.js';
import { UIDTrackingControllerExpectations } from './uid-tracking-controller-expectations.js';

const rs = 'ns/rs';

function pod(name: string, opts: { owner?: string; kind?: string; terminating?: boolean } = {}) {
  const { owner = 'rs', kind = 'ReplicaSet', terminating = false } = opts;
  return {
    metadata: {
      namespace: 'ns',
      name,
      uid: `uid-${name}`,
      ownerReferences: [
        { kind: 'Other', name: 'not-controller', controller: false },
        { kind, name: owner, controller: true },
      ],
      ...(terminating ? { deletionTimestamp: new Date(0) } : {}),
    },
  } satisfies ControlleeObject;
}

describe('controllerRefKey', () => {
  it('gives "namespace/name" of the controller owner reference, filtered by kind', () => {
    expect(controllerRefKey(pod('a'))).toBe(rs);
    expect(controllerRefKey(pod('a'), 'ReplicaSet')).toBe(rs);
    expect(controllerRefKey(pod('a'), 'StatefulSet')).toBeUndefined();
    expect(
      controllerRefKey({ metadata: { name: 'x', ownerReferences: [{ name: 'o' }] } }),
    ).toBeUndefined();
    expect(controllerRefKey({})).toBeUndefined();
    expect(
      controllerRefKey({
        metadata: { name: 'n', ownerReferences: [{ name: 'o', controller: true }] },
      }),
    ).toBe('o');
  });
});

describe('bindControllerExpectations', () => {
  it('lowers creations on add and deletions on delete, tombstones included', () => {
    const informer = new FakeInformer<ReturnType<typeof pod>>();
    const exp = new ControllerExpectations();
    bindControllerExpectations(informer, exp);
    exp.setExpectations(rs, 2, 2);
    informer.emitAdd(pod('a'));
    informer.emitAdd(pod('b'));
    expect(exp.getExpectations(rs)!.getExpectations()).toEqual([0, 2]);
    informer.emitDelete(pod('a'));
    informer.emitDelete({ key: 'ns/b', obj: pod('b') });
    expect(exp.getExpectations(rs)!.getExpectations()).toEqual([0, 0]);
    expect(exp.satisfiedExpectations(rs)).toBe(true);
  });

  it('ignores objects of another owner kind, without an owner, or tombstones without an object', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const exp = new ControllerExpectations();
    bindControllerExpectations(informer, exp, { ownerKind: 'ReplicaSet' });
    exp.setExpectations(rs, 1, 1);
    informer.emitAdd(pod('a', { kind: 'StatefulSet' }));
    informer.emitAdd({ metadata: { namespace: 'ns', name: 'orphan' } });
    informer.emitDelete({ key: 'ns/gone', obj: undefined as unknown as ControlleeObject });
    expect(exp.getExpectations(rs)!.getExpectations()).toEqual([1, 1]);
  });

  it('uses controllerKeyOf when given', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const exp = new ControllerExpectations();
    bindControllerExpectations(informer, exp, { controllerKeyOf: () => 'ns/custom' });
    exp.setExpectations('ns/custom', 1, 0);
    informer.emitAdd({ metadata: { namespace: 'ns', name: 'x' } });
    expect(exp.satisfiedExpectations('ns/custom')).toBe(true);
  });

  it('unbind removes every handler it registered', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const exp = new ControllerExpectations();
    const unbind = bindControllerExpectations(informer, exp);
    expect(informer.handlerCount).toBe(2);
    unbind();
    expect(informer.handlerCount).toBe(0);
    exp.setExpectations(rs, 1, 0);
    informer.emitAdd(pod('a'));
    expect(exp.satisfiedExpectations(rs)).toBe(false);
  });

  it('works with an informer whose registrations return nothing', () => {
    const handlers: Array<(obj: ControlleeObject) => void> = [];
    const informer = {
      onAdd: (h: (obj: ControlleeObject) => void) => {
        handlers.push(h);
      },
      onDelete: () => {},
    };
    const exp = new ControllerExpectations();
    const unbind = bindControllerExpectations(informer, exp);
    exp.setExpectations(rs, 1, 0);
    handlers[0]!(pod('a'));
    expect(exp.satisfiedExpectations(rs)).toBe(true);
    expect(unbind).not.toThrow();
  });

  it('a failing handler logs an error and does not throw into the informer', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const logger = new RecordingLogger();
    bindControllerExpectations(
      informer,
      {
        creationObserved: () => {
          throw new Error('boom');
        },
        deletionObserved: () => {},
      },
      { logger },
    );
    expect(() => informer.emitAdd(pod('a'))).not.toThrow();
    expect(logger.entries.filter((e) => e.level === 'error')).toHaveLength(1);
    expect(logger.entries.at(-1)!.obj).toMatchObject({ event: 'add' });
  });

  it('logs a debug line naming the controller key and the object key', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const logger = new RecordingLogger();
    bindControllerExpectations(informer, new ControllerExpectations(), { logger });
    informer.emitAdd(pod('a'));
    expect(logger.entries).toEqual([
      { level: 'debug', obj: { key: rs, uids: ['ns/a'] }, msg: 'creation observed' },
    ]);
  });
});

describe('bind* options', () => {
  it('are validated when binding, naming the field, and register nothing', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const exp = new ControllerExpectations();
    const cases: Array<[() => unknown, string]> = [
      [() => bindControllerExpectations({} as never, exp), 'informer'],
      [
        () => bindControllerExpectations(informer, exp, { controllerKeyOf: 'x' as never }),
        'options.controllerKeyOf',
      ],
      [
        () => bindExpectationsStore(informer, new ExpectationsStore(), { ownerKind: '' }),
        'options.ownerKind',
      ],
      [
        () =>
          bindUIDTrackingExpectations(informer, new UIDTrackingControllerExpectations(), {
            logger: {} as never,
          }),
        'options.logger',
      ],
    ];
    for (const [call, field] of cases) {
      expect(call, field).toThrow(expect.objectContaining({ reason: 'InvalidArgument', field }));
    }
    expect(informer.handlerCount).toBe(0);
  });
});

describe('bindUIDTrackingExpectations', () => {
  it('counts a graceful delete once: the update to deletionTimestamp and the delete event', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const exp = new UIDTrackingControllerExpectations();
    bindUIDTrackingExpectations(informer, exp);
    exp.expectDeletions(rs, ['ns/a', 'ns/b']);
    informer.emitUpdate(pod('a'), pod('a', { terminating: true }));
    informer.emitUpdate(pod('a', { terminating: true }), pod('a', { terminating: true }));
    informer.emitDelete(pod('a', { terminating: true }));
    expect(exp.getExpectations(rs)!.getExpectations()).toEqual([0, 1]);
    informer.emitDelete({ key: 'ns/b', obj: pod('b') });
    expect(exp.satisfiedExpectations(rs)).toBe(true);
    expect(exp.getUIDs(rs)!.size).toBe(0);
  });

  it('ignores the delete of an object it did not delete, and updates without a new deletionTimestamp', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const exp = new UIDTrackingControllerExpectations();
    bindUIDTrackingExpectations(informer, exp);
    exp.expectDeletions(rs, ['ns/a']);
    informer.emitDelete(pod('other'));
    informer.emitUpdate(pod('a'), pod('a'));
    expect(exp.satisfiedExpectations(rs)).toBe(false);
  });

  it('an add is a creation; an add already terminating is also a deletion', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const exp = new UIDTrackingControllerExpectations();
    bindUIDTrackingExpectations(informer, exp);
    exp.setExpectations(rs, 2, 0);
    informer.emitAdd(pod('a'));
    expect(exp.getExpectations(rs)!.getExpectations()).toEqual([1, 0]);
    exp.addExpectedDeletion(rs, 'ns/b');
    exp.raiseExpectations(rs, 1, 0);
    informer.emitAdd(pod('b', { terminating: true }));
    expect(exp.getExpectations(rs)!.getExpectations()).toEqual([0, 0]);
  });

  it('works without onUpdate, and unbind removes all three handlers', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const unbind = bindUIDTrackingExpectations(informer, new UIDTrackingControllerExpectations());
    expect(informer.handlerCount).toBe(3);
    unbind();
    expect(informer.handlerCount).toBe(0);
    const exp = new UIDTrackingControllerExpectations();
    const plain = {
      onAdd: informer.onAdd.bind(informer),
      onDelete: informer.onDelete.bind(informer),
    };
    bindUIDTrackingExpectations(plain, exp);
    expect(informer.handlerCount).toBe(2);
    exp.expectDeletions(rs, ['ns/a']);
    informer.emitDelete(pod('a'));
    expect(exp.satisfiedExpectations(rs)).toBe(true);
  });
});

describe('bindExpectationsStore', () => {
  it('observes deletions by UID from delete events and tombstones; adds are left to sync', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const store = new ExpectationsStore();
    const logger = new RecordingLogger();
    bindExpectationsStore(informer, store, { logger });
    expect(informer.handlerCount).toBe(1);
    store.expectDeletions(rs, ['uid-a', 'uid-b', 'uid-c']);
    store.expectCreations(rs, ['uid-new']);
    informer.emitAdd(pod('new'));
    informer.emitDelete(pod('a'));
    informer.emitDelete({ key: 'ns/b', obj: pod('b') });
    informer.emitDelete({ key: 'ns/c', obj: undefined as unknown as ControlleeObject });
    informer.emitDelete({
      metadata: {
        namespace: 'ns',
        name: 'no-uid',
        ownerReferences: [{ name: 'rs', controller: true }],
      },
    });
    expect(store.getDeleteExpectations(rs)).toEqual(['uid-c']);
    expect(store.getCreateExpectations(rs)).toEqual(['uid-new']);
    expect(logger.entries.map((e) => e.obj)).toEqual([
      { key: rs, uids: ['uid-a'] },
      { key: rs, uids: ['uid-b'] },
    ]);
  });

  it('creates no record for a controller without expectations', () => {
    const informer = new FakeInformer<ControlleeObject>();
    const store = new ExpectationsStore();
    bindExpectationsStore(informer, store);
    informer.emitDelete(pod('a'));
    expect(store.getExpectations(rs)).toBeUndefined();
  });
});

describe('client-go style informers (addEventHandler)', () => {
  /** An informer with one `addEventHandler` registration, as @ctrlkit/runtime's SharedIndexInformer. */
  function handlerSetInformer() {
    const registered = new Set<ControlleeEventHandlers<ControlleeObject>>();
    return {
      registered,
      addEventHandler(handlers: ControlleeEventHandlers<ControlleeObject>) {
        registered.add(handlers);
        return { remove: () => void registered.delete(handlers) };
      },
      emit(kind: 'onAdd' | 'onDelete', obj: ControlleeObject) {
        for (const h of registered) h[kind]?.(obj);
      },
      emitUpdate(oldObj: ControlleeObject, newObj: ControlleeObject) {
        for (const h of registered) h.onUpdate?.(oldObj, newObj);
      },
    };
  }

  it('registers all handlers in one addEventHandler call and lowers expectations from them', () => {
    const informer = handlerSetInformer();
    const exp = new UIDTrackingControllerExpectations();
    const unbind = bindUIDTrackingExpectations(informer, exp);
    expect(informer.registered.size).toBe(1);
    exp.setExpectations(rs, 1, 0);
    informer.emit('onAdd', pod('a'));
    exp.expectDeletions(rs, ['ns/a']);
    informer.emitUpdate(pod('a'), pod('a', { terminating: true }));
    informer.emit('onDelete', pod('a', { terminating: true }));
    expect(exp.getExpectations(rs)!.getExpectations()).toEqual([0, 0]);
    unbind();
    expect(informer.registered.size).toBe(0);
  });

  it('binds a ControllerExpectations the same way', () => {
    const informer = handlerSetInformer();
    const exp = new ControllerExpectations();
    bindControllerExpectations(informer, exp);
    exp.expectCreations(rs, 2);
    informer.emit('onAdd', pod('a'));
    informer.emit('onAdd', pod('b'));
    expect(exp.satisfiedExpectations(rs)).toBe(true);
  });
});
