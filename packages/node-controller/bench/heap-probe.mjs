// Preloaded into the measured bin (`node --import bench/heap-probe.mjs …`): samples V8's used
// heap every 20 ms and, as the process exits, writes the peak and the heap at exit as JSON to
// $HEAP_PROBE_FILE. Samples between collections, so a peak shorter than 20 ms can be missed.
import { writeFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

let peak = 0;
const sample = () => {
  peak = Math.max(peak, getHeapStatistics().used_heap_size);
};
setInterval(sample, 20).unref();
process.on('exit', () => {
  sample();
  const exitHeap = getHeapStatistics().used_heap_size;
  writeFileSync(
    process.env.HEAP_PROBE_FILE,
    JSON.stringify({ peakHeapBytes: peak, exitHeapBytes: exitHeap }),
  );
});
