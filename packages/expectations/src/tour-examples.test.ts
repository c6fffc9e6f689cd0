// The first programs of the @packageDocumentation tours, through the entry points.

import { expect, it } from 'vitest';
import { ControllerExpectations, ExpectationsStore } from './index.js';
import { bindControllerExpectations, type ControlleeObject } from './informer.js';
import { SuccessfulCreatePodReason } from './kubevirt-reasons.js';
import { FakeClock, FakeInformer } from './testing.js';

it('the root: a store corrects the arithmetic of a reconcile on a stale cache', () => {
  const store = new ExpectationsStore();
  const desired = 3;
  const cachedPodUIDs = ['uid-a'];
  store.syncExpectations('default/web', cachedPodUIDs);
  const missing =
    desired - cachedPodUIDs.length - store.getCreateExpectations('default/web').length;
  expect(missing).toBe(2);
  store.expectCreations('default/web', ['uid-b', 'uid-c']);
  store.syncExpectations('default/web', cachedPodUIDs);
  expect(desired - cachedPodUIDs.length - store.getCreateExpectations('default/web').length).toBe(
    0,
  );
});

it('./informer and ./testing: an add event lowers the expectations of its controller', () => {
  const expectations = new ControllerExpectations({ clock: new FakeClock() });
  const pods = new FakeInformer<ControlleeObject>();
  bindControllerExpectations(pods, expectations);
  expectations.expectCreations('default/web', 1);
  expect(expectations.satisfiedExpectations('default/web')).toBe(false);
  pods.emitAdd({
    metadata: {
      namespace: 'default',
      name: 'web-1',
      ownerReferences: [{ kind: 'ReplicaSet', name: 'web', controller: true }],
    },
  });
  expect(expectations.satisfiedExpectations('default/web')).toBe(true);
});

it('./kubevirt-reasons: the upstream string values', () => {
  expect(SuccessfulCreatePodReason).toBe('SuccessfulCreate');
});
