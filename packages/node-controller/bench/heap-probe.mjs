// Preloaded into the measured bin (`node --import bench/heap-probe.mjs …`): samples V8's used
// heap every 20 ms and, as the process exits, writes the peak and the heap at exit as JSON to
// $HEAP_PROBE_FILE. Samples between collections, so a peak shorter than 20 ms can be missed.
// With $HEAP_PROBE_SECONDS it also appends, each second, a JSON line of that second's lowest and
// highest sample ({"t": ms since start, "min": bytes, "max": bytes}) for the scale mode's windows.
// SIGUSR2 makes it quiet: one sample a second instead of fifty. Sampling every 20 ms costs an
// idle process about 5 ms of CPU a second (measured: 330 ms a minute on the loaded 2-core machine,
// where the process alone uses none), which the scale mode's steady-state CPU must not count.
import { appendFileSync, writeFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

const seconds = process.env.HEAP_PROBE_SECONDS;
const start = performance.now();
let peak = 0;
let low = Number.POSITIVE_INFINITY;
let high = 0;
const sample = () => {
  const used = getHeapStatistics().used_heap_size;
  peak = Math.max(peak, used);
  low = Math.min(low, used);
  high = Math.max(high, used);
};
let sampling = setInterval(sample, 20).unref();
process.on('SIGUSR2', () => {
  clearInterval(sampling);
  sampling = setInterval(sample, 1000).unref();
});
if (seconds) {
  setInterval(() => {
    const t = Math.round(performance.now() - start);
    appendFileSync(seconds, `${JSON.stringify({ t, min: low, max: high })}\n`);
    low = Number.POSITIVE_INFINITY;
    high = 0;
  }, 1000).unref();
}
process.on('exit', () => {
  sample();
  const exitHeap = getHeapStatistics().used_heap_size;
  writeFileSync(
    process.env.HEAP_PROBE_FILE,
    JSON.stringify({ peakHeapBytes: peak, exitHeapBytes: exitHeap }),
  );
});
