import { waitFor } from '@ctrlkit/core/testing';
import { expect, it } from 'vitest';
import { defaultControllerRateLimiter, newTypedRateLimitingQueue, runWorkers } from './index.js';

it('runs the README example: workers reconcile keys, retry failures, and stop on abort', async () => {
  const reconciled: string[] = [];
  let failures = 0;
  const reconcile = async (key: string) => {
    if (failures++ === 0) throw new Error('transient');
    reconciled.push(key);
  };

  const queue = newTypedRateLimitingQueue(defaultControllerRateLimiter<string>(), { name: 'pods' });
  const stop = new AbortController();
  const running = runWorkers(
    queue,
    async (key) => {
      await reconcile(key); // throw to retry with backoff, up to 20 times
    },
    { workers: 4, signal: stop.signal },
  );

  queue.add('default/nginx');
  await waitFor('the key reconciled', () => reconciled.length > 0);
  stop.abort();
  await running;
  expect(reconciled).toEqual(['default/nginx']);
  expect(failures).toBe(2);
  expect(queue.numRequeues('default/nginx')).toBe(0);
});
