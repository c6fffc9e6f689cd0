// The work queue's scale curves (issue 36): contended adds (1 M adds over 100 keys) at 1, 4 and
// 16 workers, and heap per item with 10k, 100k and 1 M distinct keys pending, against client-go's
// workqueue (tooling/go-bench/workqueue -scale) in the same run: each round runs the Go peer, then
// ours, so both see the same load. Written to bench/results/scale.json and its SVGs.
// Run: pnpm --filter @ctrlkit/workqueue bench -- --scale [--rounds 3] [--out scale]
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pointOf, startMeasuring, writeResults } from '@ctrlkit/figures';
import { goProgram } from '@ctrlkit/go-programs';
import { newTyped } from '@ctrlkit/workqueue';
import { produce } from './produce.mjs';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};
const rounds = Number(flag('--rounds', 3));
const out = flag('--out', 'scale');
if (!/^[\w-]+$/.test(out)) throw new Error('--out takes a file name without .json');
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number >= 1');
if (globalThis.gc === undefined) throw new Error('run with node --expose-gc (pnpm bench does)');
const n = 1_000_000;
const workers = [1, 4, 16];
const sizes = [10_000, 100_000, n];
const items = Array.from({ length: n }, (_, i) => `key-${i}`);
const hot = items.slice(0, 100);

/** Heap per item of a queue holding `size` distinct keys that no worker takes. */
function pending(size) {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const q = newTyped();
  for (let i = 0; i < size; i++) q.add(items[i]);
  gc();
  gc();
  const perItem = (process.memoryUsage().heapUsed - before) / size;
  if (q.len() !== size) throw new Error(`pending: ${q.len()} of ${size}`);
  q.shutDown();
  return perItem;
}

/** One round of ours: the same rows the Go peer prints. */
async function oursRound() {
  await produce(hot, n / 10, 4); // warm-up, dropped
  const rows = new Map();
  for (const w of workers) rows.set(`contended ${w}`, (await produce(hot, n, w)).rate);
  for (const size of sizes) rows.set(`pending ${size}`, pending(size));
  return rows;
}

/** One round of client-go's, from the Go program built by `pnpm setup:go bench-workqueue`. */
function goRound() {
  const out = execFileSync(goProgram('bench-workqueue'), ['-n', String(n), '-scale'], {
    encoding: 'utf8',
  });
  return new Map(
    out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .map((r) => [r.row, r.value]),
  );
}

const measured = { ctrlkit: new Map(), 'client-go': new Map() };
const keep = (side, rows) => {
  for (const [row, value] of rows)
    measured[side].set(row, [...(measured[side].get(row) ?? []), value]);
};
for (let r = 0; r < rounds; r++) {
  keep('client-go', goRound());
  keep('ctrlkit', await oursRound());
  console.log(`round ${r + 1} of ${rounds} done, load ${loadavg()[0].toFixed(2)}`);
}

const fmt = (v) => (v >= 1e6 ? `${(v / 1e6).toFixed(1)} M` : v.toFixed(1));
const spreadCell = ({ y, min, max }) => `${fmt(y)} (${fmt(min)}–${fmt(max)})`;
/** The table and curve of one figure over its sizes; `ratio` is ours / client-go's, of the medians and per round. */
function figure(prefix, xs, options) {
  const point = (side, x) => pointOf(x, measured[side].get(`${prefix} ${x}`));
  const rows = xs.map((x) => {
    const ours = point('ctrlkit', x);
    const peer = point('client-go', x);
    const perRound = measured.ctrlkit
      .get(`${prefix} ${x}`)
      .map((v, i) => v / measured['client-go'].get(`${prefix} ${x}`)[i]);
    const spread = pointOf(x, perRound);
    return [
      x,
      spreadCell(ours),
      spreadCell(peer),
      `${(ours.y / peer.y).toFixed(2)}x (rounds ${spread.min.toFixed(2)}–${spread.max.toFixed(2)})`,
    ];
  });
  return {
    table: {
      columns: [
        options.x,
        `ctrlkit ${options.unit}`,
        `client-go ${options.unit}`,
        'ctrlkit / client-go',
      ],
      rows,
      caption: options.caption,
    },
    curve: {
      title: options.title,
      x: { label: options.x, scale: 'log' },
      y: { label: options.unit },
      series: ['ctrlkit', 'client-go'].map((side) => ({
        name: side === 'client-go' ? 'client-go v0.37.2' : side,
        points: xs.map((x) => point(side, x)),
      })),
    },
  };
}

const contended = figure('contended', workers, {
  x: 'workers',
  unit: 'adds/s',
  title: 'Contended adds: 1 M adds over 100 keys (higher is better)',
  caption: `Median of ${rounds} rounds (lowest–highest); each round runs client-go, then ctrlkit. Aim: >= 1.0x.`,
});
const heap = figure('pending', sizes, {
  x: 'distinct keys pending',
  unit: 'B heap per item',
  title: 'Heap per pending item (lower is better)',
  caption: `Median of ${rounds} rounds (lowest–highest); heap after GC, the keys allocated before. Aim: <= client-go's.`,
});
console.table(
  Object.fromEntries([...contended.table.rows, ...heap.table.rows].map((r) => [r[0], r.slice(1)])),
);
writeResults(join(here, `results/${out}.json`), {
  command: `pnpm --filter @ctrlkit/workqueue bench -- --scale${rounds === 3 ? '' : ` --rounds ${rounds}`}${out === 'scale' ? '' : ` --out ${out}`}`,
  started,
  tables: { contended: contended.table, pending: heap.table },
  curves: { 'contended-curve': contended.curve, 'pending-curve': heap.curve },
});
