// The main job, until the controller apps exist: a workqueue demo. A simulated reconciler
// (it touches no cluster) handles 40 keys with 4 workers; a third of its calls fail at
// first, and the default controller rate limiter retries them with backoff.
import {
  defaultControllerRateLimiter,
  newTypedRateLimitingQueue,
  runWorkers,
} from '@ctrlkit/workqueue';

const keys = Array.from({ length: 40 }, (_, i) => `demo/object-${String(i).padStart(2, '0')}`);
const queue = newTypedRateLimitingQueue(defaultControllerRateLimiter(), { name: 'demo' });
const stop = new AbortController();
const tries = new Map();
const reconciled = new Set();
const started = performance.now();

/** The simulated reconciler: each key fails on its first try or two, then succeeds. */
async function reconcile(key) {
  const n = (tries.get(key) ?? 0) + 1;
  tries.set(key, n);
  await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  if (n <= Number(key.slice(-2)) % 3) throw new Error(`simulated conflict on ${key}`);
  reconciled.add(key);
  const elapsed = ((performance.now() - started) / 1000).toFixed(2);
  console.log(`${elapsed.padStart(6)} s  reconciled ${key} after ${n} tr${n === 1 ? 'y' : 'ies'}`);
  if (reconciled.size === keys.length) stop.abort();
}

console.log(
  'ctrlkit demo: @ctrlkit/workqueue with 4 workers and the default controller rate limiter',
);
console.log('(a simulated reconciler; the controller apps will replace this demo)\n');
const running = runWorkers(queue, reconcile, { workers: 4, signal: stop.signal });
for (const key of keys) queue.add(key);
await running;
const retries = [...tries.values()].reduce((sum, n) => sum + n - 1, 0);
console.log(`\n${reconciled.size} keys reconciled, ${retries} retries, queue shut down cleanly.`);
