import { describe, expect, it } from 'vitest';
import { enqueueRequestForObject, enqueueRequestsFromMapFunc } from '../handler/enqueue.js';
import { requestForObject, requestFromKey, requestKey, requestReconciler } from './request.js';

describe('Request', () => {
  it('converts both ways between { namespace, name } and the queue key', () => {
    expect(requestKey({ namespace: 'ns', name: 'a' })).toBe('ns/a');
    expect(requestKey({ namespace: '', name: 'node-1' })).toBe('node-1');
    expect(requestFromKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(requestFromKey('node-1')).toEqual({ namespace: '', name: 'node-1' });
    expect(requestForObject({ metadata: { name: 'a', namespace: 'ns' } })).toEqual({
      namespace: 'ns',
      name: 'a',
    });
    expect(() => requestFromKey('a/b/c')).toThrow(/key/);
  });

  it('requestReconciler hands the reconciler a Request for each key', async () => {
    const seen: unknown[] = [];
    const reconcile = requestReconciler((request) => {
      seen.push(request);
      return { requeueAfterMs: 5 };
    });
    expect(await reconcile('ns/a', new AbortController().signal)).toEqual({ requeueAfterMs: 5 });
    expect(seen).toEqual([{ namespace: 'ns', name: 'a' }]);
  });
});

describe('event handlers', () => {
  it('enqueueRequestForObject enqueues the object itself', () => {
    expect(enqueueRequestForObject()({ metadata: { name: 'a', namespace: 'ns' } })).toEqual([
      'ns/a',
    ]);
  });

  it('enqueueRequestsFromMapFunc enqueues the mapped requests', () => {
    const map = enqueueRequestsFromMapFunc((secret: { metadata: { name: string } }) => [
      { namespace: 'apps', name: `uses-${secret.metadata.name}` },
      { namespace: '', name: 'cluster-wide' },
    ]);
    expect(map({ metadata: { name: 's' } })).toEqual(['apps/uses-s', 'cluster-wide']);
  });
});
