// The workqueue benchmark: the same workloads against @ctrlkit/workqueue (this process)
// and client-go's util/workqueue (tooling/go-bench/workqueue, built with the machine's Go),
// printed as one table with the ratio ctrlkit / client-go for each row, and written with the
// run's commit, date and load to bench/results/workqueue.json (the README's table).
// Run: pnpm --filter @ctrlkit/workqueue bench   (N=... to change the item count)
// `-- --scale` runs the scale curves instead (bench/scale.mjs).
import { execFileSync, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMeasuring, writeResults } from '@ctrlkit/figures';
import { goProgram } from '@ctrlkit/go-programs';
import { defaultControllerRateLimiter, newTypedDelayingQueue } from '@ctrlkit/workqueue';
import { produce } from './produce.mjs';

if (process.argv.includes('--scale')) {
  await import('./scale.mjs');
  process.exit(0);
}

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.env.N ?? 1_000_000);
const gc = globalThis.gc ?? (() => {});
const items = Array.from({ length: n }, (_, i) => `key-${i}`);

async function delayed() {
  gc();
  const before = process.memoryUsage().heapUsed;
  const q = newTypedDelayingQueue();
  const start = performance.now();
  for (let i = 0; i < n; i++) q.addAfter(items[i], 3_600_000 + i);
  const perOp = ((performance.now() - start) * 1000) / n;
  gc();
  const perItem = (process.memoryUsage().heapUsed - before) / n;
  q.shutDown();
  return { perOp, perItem };
}

function when() {
  const limiter = defaultControllerRateLimiter();
  const start = performance.now();
  for (let i = 0; i < n; i++) limiter.when(items[i % 1000]);
  return ((performance.now() - start) * 1e6) / n;
}

async function ours() {
  // Warm up the JIT on a tenth of the work; these figures are dropped.
  await produce(items.slice(0, n / 10), n / 10, 1);
  await produce(items.slice(0, 100), n / 10, 4);
  const rows = [];
  for (const w of [1, 4, 16]) {
    const { rate, got } = await produce(items, n, w);
    if (got !== n) throw new Error(`distinct keys: got ${got} of ${n}`);
    rows.push({ row: `distinct keys, ${w} worker(s)`, value: rate, unit: 'cycles/s' });
  }
  for (const w of [1, 4, 16]) {
    const { rate } = await produce(items.slice(0, 100), n, w);
    rows.push({ row: `${n} adds over 100 keys, ${w} worker(s)`, value: rate, unit: 'adds/s' });
  }
  const { perOp, perItem } = await delayed();
  rows.push({ row: 'addAfter, 1,000,000 pending', value: perOp, unit: 'µs/op' });
  rows.push({ row: 'heap per pending delayed item', value: perItem, unit: 'B' });
  rows.push({ row: 'default controller rate limiter when()', value: when(), unit: 'ns/op' });
  return rows;
}

/**
 * Runs the Go side, built by the set-up (`pnpm setup:go bench-workqueue`); undefined (with the
 * reason, naming that command, printed) where it is not built.
 */
function clientGo() {
  let binary;
  try {
    binary = goProgram('bench-workqueue');
  } catch (error) {
    console.log(`client-go column skipped: ${error.message}.`);
    return undefined;
  }
  const out = execFileSync(binary, ['-n', String(n)], { encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

const higherIsBetter = (unit) => unit.endsWith('/s');
const format = (value) =>
  value >= 1000 ? Math.round(value).toLocaleString('en-US') : value.toFixed(value >= 10 ? 1 : 3);

const goRows = clientGo();
const ourRows = await ours();
const table = ourRows.map(({ row, value, unit }) => {
  const peer = goRows?.find((r) => r.row === row);
  return {
    workload: row,
    unit,
    ctrlkit: format(value),
    'client-go': peer ? format(peer.value) : '-',
    'ctrlkit / client-go': peer ? (value / peer.value).toFixed(2) : '-',
    better: higherIsBetter(unit) ? 'higher' : 'lower',
  };
});
const title = `@ctrlkit/workqueue vs client-go util/workqueue, N = ${n.toLocaleString('en-US')}`;
console.log(`\n${title}, node ${process.version}`);
console.table(table);
const go = goRows ? spawnSync('go', ['version'], { encoding: 'utf8' }).stdout.trim() : 'no Go';
writeResults(join(here, 'results/workqueue.json'), {
  command: `${process.env.N ? `N=${n} ` : ''}pnpm --filter @ctrlkit/workqueue bench`,
  started,
  tables: {
    workqueue: {
      columns: Object.keys(table[0]),
      rows: table.map((row) => Object.values(row)),
      caption: `${title}; client-go ${goRows ? `built with ${go}` : 'not measured (no Go)'}. One run, each figure a single measurement.`,
    },
  },
});
