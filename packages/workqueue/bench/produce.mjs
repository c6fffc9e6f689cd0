// The contended workload both bench modes share: one producer adds while workers take.
import { newTyped } from '@ctrlkit/workqueue';

const batch = 1000;
const yieldToWorkers = () => new Promise((resolve) => setImmediate(resolve));

/**
 * One producer adds `adds` times over `keys` (yielding every 1,000 adds) while `workers` take
 * them; resolves adds per second (first add until every worker stopped) and the items got.
 * @param {readonly string[]} keys
 * @param {number} adds
 * @param {number} workers
 */
export async function produce(keys, adds, workers) {
  const start = performance.now();
  const q = newTyped();
  let got = 0;
  const worker = async () => {
    for (;;) {
      const next = await q.get();
      if (next.shutdown) return;
      got++;
      q.done(next.item);
    }
  };
  const running = Array.from({ length: workers }, worker);
  for (let i = 0; i < adds; i++) {
    q.add(keys[i % keys.length]);
    if (i % batch === batch - 1) await yieldToWorkers();
  }
  q.shutDown();
  await Promise.all(running);
  return { rate: adds / ((performance.now() - start) / 1000), got };
}
