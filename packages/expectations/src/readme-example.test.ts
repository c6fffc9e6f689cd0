// The README's opening example, run as a test: keep the two in step.
import { expect, it } from 'vitest';
import { ExpectationsStore } from './index.js';

it('README example: a stale cache does not cause a second batch of creations', () => {
  const store = new ExpectationsStore();
  const key = 'default/web'; // the controller's key
  const desired = 3;

  // Reconcile 1: the informer cache lists one pod; two are missing.
  store.syncExpectations(key, ['uid-a']);
  const missing1 = desired - 1 - store.getCreateExpectations(key).length; // 2
  store.expectCreations(key, ['uid-b', 'uid-c']); // the UIDs the two creates returned

  // Reconcile 2, right after: the cache still lists one pod, but nothing is missing.
  store.syncExpectations(key, ['uid-a']);
  const missing2 = desired - 1 - store.getCreateExpectations(key).length; // 0

  // Reconcile 3: the cache caught up; the sync drops the expectations it made obsolete.
  store.syncExpectations(key, ['uid-a', 'uid-b', 'uid-c']);

  expect(missing1).toBe(2);
  expect(missing2).toBe(0);
  expect(store.getCreateExpectations(key)).toEqual([]);
});
