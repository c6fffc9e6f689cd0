// The contended workload both bench modes share: one producer adds while workers take.
import { newTyped as ourNewTyped } from '@ctrlkit/workqueue';

const batch = 1000;
const yieldToWorkers = () => new Promise((resolve) => setImmediate(resolve));

/**
 * One producer adds `adds` times over `keys` (yielding every 1,000 adds) while `workers` take
 * them; resolves adds per second (first add until every worker stopped), adds per second of
 * the process's CPU time (user + system, all threads: steadier than the wall clock on a loaded
 * machine) and the items got.
 * @param {readonly string[]} keys
 * @param {number} adds
 * @param {number} workers
 * @param {typeof ourNewTyped} [newTyped] the queue's maker (default: this build's; the scale
 *   bench passes a baseline build's)
 */
export async function produce(keys, adds, workers, newTyped = ourNewTyped) {
  const start = performance.now();
  const cpu = process.cpuUsage();
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
  const seconds = (performance.now() - start) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  return { rate: adds / seconds, cpuRate: adds / ((user + system) / 1e6), got };
}
