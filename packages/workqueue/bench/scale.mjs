// The work queue's scale curves (issue 36): contended adds (1 M adds over 100 keys) at 1, 4 and
// 16 workers, and heap per item with 10k, 100k and 1 M distinct keys pending, against client-go's
// workqueue (tooling/go-bench/workqueue -scale) in the same run: each round runs the Go peer, then
// ours, so both see the same load; our heap rounds follow the contended ones. Written to
// bench/results/scale.json and its SVGs.
// With `--baseline <dist folder>` (another build of this package, e.g. the commit before a change,
// copied to packages/workqueue/.baseline-dist so that its imports resolve), a third column
// `ctrlkit baseline` runs in each round beside ours (after it in rounds 1, 3, …, before it in
// rounds 2, 4, …): before and after in one run.
// Run: pnpm --filter @ctrlkit/workqueue bench -- --scale [--rounds 3] [--baseline dir]
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
const baselineDir = flag('--baseline', undefined);
const baseline =
  baselineDir === undefined
    ? undefined
    : await import(pathToFileURL(resolve(baselineDir, 'index.js')).href);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number >= 1');
if (globalThis.gc === undefined) throw new Error('run with node --expose-gc (pnpm bench does)');
const n = 1_000_000;
const workers = [1, 4, 16];
const sizes = [10_000, 100_000, n];
const items = Array.from({ length: n }, (_, i) => `key-${i}`);
const hot = items.slice(0, 100);

/** Heap per item of a queue holding `size` distinct keys that no worker takes. */
function pending(size, make = newTyped) {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const q = make();
  for (let i = 0; i < size; i++) q.add(items[i]);
  gc();
  gc();
  const perItem = (process.memoryUsage().heapUsed - before) / size;
  if (q.len() !== size) throw new Error(`pending: ${q.len()} of ${size}`);
  q.shutDown();
  return perItem;
}

/** One round of ours (or the baseline build's) contended adds: the first rows the Go peer prints. */
async function contendedRound(make = newTyped) {
  // Warm-up at each worker count (dropped): the JIT has compiled every path before a figure.
  for (const w of workers) await produce(hot, n / 10, w, make);
  const rows = new Map();
  for (const w of workers) {
    const { rate, cpuRate } = await produce(hot, n, w, make);
    rows.set(`contended ${w}`, rate);
    rows.set(`contended-cpu ${w}`, cpuRate);
  }
  return rows;
}

/** One round of ours (or the baseline build's) heap per pending item. */
function pendingRound(make = newTyped) {
  return new Map(sizes.map((size) => [`pending ${size}`, pending(size, make)]));
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

const sides = ['ctrlkit', ...(baseline ? ['ctrlkit baseline'] : []), 'client-go'];
const measured = Object.fromEntries(sides.map((side) => [side, new Map()]));
const keep = (side, rows) => {
  for (const [row, value] of rows)
    measured[side].set(row, [...(measured[side].get(row) ?? []), value]);
};
/** Runs `round` for ctrlkit and the baseline build; every other time the baseline first. */
async function bothSides(r, round) {
  if (baseline && r % 2 === 1) keep('ctrlkit baseline', await round(baseline.newTyped));
  keep('ctrlkit', await round());
  if (baseline && r % 2 === 0) keep('ctrlkit baseline', await round(baseline.newTyped));
}
for (let r = 0; r < rounds; r++) {
  keep('client-go', goRound());
  await bothSides(r, contendedRound);
  console.log(`round ${r + 1} of ${rounds} done, load ${loadavg()[0].toFixed(2)}`);
}
// The heap rounds come after every contended one: the full collections they force leave a
// million-key heap to sweep, on helper threads whose CPU time the next contended figure (1 worker)
// counted (--trace-gc: lowest right after them). The Go program measures its pending keys last.
for (let r = 0; r < rounds; r++) await bothSides(r, pendingRound);

const fmt = (v) => (v >= 1e6 ? `${(v / 1e6).toFixed(1)} M` : v.toFixed(1));
const spreadCell = ({ y, min, max }) => `${fmt(y)} (${fmt(min)}–${fmt(max)})`;
/** The table and curve of one figure over its sizes; `ratio` is ours / client-go's, of the medians and per round. */
function figure(prefix, xs, options) {
  const values = (side, x) => measured[side].get(`${prefix} ${x}`);
  const point = (side, x) => pointOf(x, values(side, x));
  /** `a ÷ b` of the medians, and the range of the ratios of the rounds (run side by side). */
  const ratio = (a, b, x) => {
    const perRound = pointOf(
      x,
      values(a, x).map((v, i) => v / values(b, x)[i]),
    );
    const of = (point(a, x).y / point(b, x).y).toFixed(2);
    return `${of}x (rounds ${perRound.min.toFixed(2)}–${perRound.max.toFixed(2)})`;
  };
  const rows = xs.map((x) => [
    x,
    ...sides.map((side) => spreadCell(point(side, x))),
    ratio('ctrlkit', 'client-go', x),
    ...(baseline ? [ratio('ctrlkit baseline', 'client-go', x)] : []),
  ]);
  const label = (side) => (side === 'client-go' ? 'client-go v0.37.2' : side);
  return {
    table: {
      columns: [
        options.x,
        ...sides.map((side) => `${side} ${options.unit}`),
        'ctrlkit / client-go',
        ...(baseline ? ['ctrlkit baseline / client-go'] : []),
      ],
      rows,
      caption: options.caption,
    },
    curve: {
      title: options.title,
      x: { label: options.x, scale: 'log' },
      y: { label: options.unit },
      series: sides.map((side) => ({ name: label(side), points: xs.map((x) => point(side, x)) })),
    },
  };
}

const contended = figure('contended', workers, {
  x: 'workers',
  unit: 'adds/s',
  title: 'Contended adds: 1 M adds over 100 keys (higher is better)',
  caption: `Median of ${rounds} rounds (lowest–highest); each round runs client-go, then ctrlkit${baseline ? ' and the baseline build (in turn first)' : ''}. Aim: >= 1.0x.`,
});
const contendedCpu = figure('contended-cpu', workers, {
  x: 'workers',
  unit: 'adds per CPU second',
  title: 'Contended adds per CPU second (higher is better)',
  caption: `Adds ÷ the process's CPU time (all threads), median of ${rounds} rounds (lowest–highest): steadier than the wall clock when other work shares the cores.`,
});
const heap = figure('pending', sizes, {
  x: 'distinct keys pending',
  unit: 'B heap per item',
  title: 'Heap per pending item (lower is better)',
  caption: `Median of ${rounds} rounds (lowest–highest); heap after GC, the keys allocated before. Aim: <= client-go's.`,
});
for (const { table } of [contended, contendedCpu, heap]) console.table(table.rows);
writeResults(join(here, 'results/scale.json'), {
  command: `pnpm --filter @ctrlkit/workqueue bench -- ${process.argv
    .slice(2)
    .filter((a) => a !== '--')
    .join(' ')}`,
  started,
  tables: { contended: contended.table, 'contended-cpu': contendedCpu.table, pending: heap.table },
  curves: {
    'contended-curve': contended.curve,
    'contended-cpu-curve': contendedCpu.curve,
    'pending-curve': heap.curve,
  },
});
