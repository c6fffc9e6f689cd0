//! Test helpers (not exported): a call-counting KubeClient, a queue that tells when it is idle.

import type { Clock } from '@ctrlkit/core';
import {
  defaultControllerRateLimiter,
  newTypedRateLimitingQueue,
  type TypedRateLimitingInterface,
} from '@ctrlkit/workqueue';
import type { KubeClient } from '../src/adapter.js';

/** API calls made through a {@link countingClient}, failures included. */
export interface CallCounts {
  create: number;
  update: number;
  delete: number;
  readNode: number;
}

/** Wraps `inner`, counting every call; `fault` runs before each call (to change the server or throw). */
export function countingClient(
  inner: KubeClient,
  fault?: (call: keyof CallCounts) => void | Promise<void>,
): KubeClient & { calls: CallCounts } {
  const calls: CallCounts = { create: 0, update: 0, delete: 0, readNode: 0 };
  const count = async (call: keyof CallCounts) => {
    calls[call]++;
    await fault?.(call);
  };
  return {
    calls,
    client: inner.client,
    createResourceSlice: async (slice, options) => {
      await count('create');
      return inner.createResourceSlice(slice, options);
    },
    updateResourceSlice: async (slice, options) => {
      await count('update');
      return inner.updateResourceSlice(slice, options);
    },
    deleteResourceSlice: async (name, preconditions, options) => {
      await count('delete');
      return inner.deleteResourceSlice(name, preconditions, options);
    },
    readNode: async (name, options) => {
      await count('readNode');
      return inner.readNode(name, options);
    },
  };
}

/** A rate-limited queue that knows whether anything is queued or being processed. */
export function trackingQueue(clock: Clock): TypedRateLimitingInterface<string> & {
  idle(): boolean;
  processed: number;
} {
  const inner = newTypedRateLimitingQueue<string>(defaultControllerRateLimiter({ clock }), {
    clock,
  });
  let inFlight = 0;
  const queue = Object.create(inner) as TypedRateLimitingInterface<string> & {
    idle(): boolean;
    processed: number;
  };
  queue.processed = 0;
  queue.get = async () => {
    const result = await inner.get();
    if (!result.shutdown) inFlight++;
    return result;
  };
  queue.done = (item: string) => {
    inFlight--;
    queue.processed++;
    inner.done(item);
  };
  queue.idle = () => inner.len() === 0 && inFlight === 0;
  for (const method of [
    'add',
    'addAfter',
    'addRateLimited',
    'forget',
    'numRequeues',
    'len',
    'shutDown',
    'shutDownWithDrain',
    'shuttingDown',
  ] as const) {
    (queue as unknown as Record<string, unknown>)[method] = (
      inner[method] as (...a: unknown[]) => unknown
    ).bind(inner);
  }
  return queue;
}
