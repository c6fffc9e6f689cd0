// Benchmark of @ctrlkit/expectations: throughput of expect/observe and syncExpectations with
// 1,000 keys x 100 UIDs, and heap per tracked UID. Run after building:
//   pnpm --filter @ctrlkit/expectations bench      (node --expose-gc bench/run.mjs)
// It prints one table and writes it, with the run's commit, date and load, to
// bench/results/expectations.json (the README's table); it never fails on a number.
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ControllerExpectations,
  ExpectationsStore,
  UIDTrackingControllerExpectations,
} from '@ctrlkit/expectations';
import { startMeasuring, writeResults } from '@ctrlkit/figures';

const started = startMeasuring();
const KEYS = 1_000;
const UIDS = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc (the package bench script does)');
  process.exit(1);
}

const keys = Array.from({ length: KEYS }, (_, i) => `bench-ns/controller-${i}`);
const uids = keys.map(() => Array.from({ length: UIDS }, () => randomUUID()));
const podKeys = keys.map((_, k) =>
  Array.from({ length: UIDS }, (_, i) => `bench-ns/pod-${k}-${i}`),
);

const rows = [];
/** A row from a timing: `perMs` turns ms per round into the figure shown. */
const row = (what, unit, t, perMs) =>
  rows.push({ what, unit, median: perMs(t.median), best: perMs(t.best) });

/**
 * Runs `setup` untimed and `body` timed, `ROUNDS` times after one warm-up; returns the median
 * and the best ms per round (on a shared machine the best is the closest to an idle one).
 */
function time(setup, body) {
  setup();
  body();
  const runs = [];
  for (let r = 0; r < ROUNDS; r++) {
    setup();
    gc(); // the setup's garbage is not the body's cost
    const t0 = performance.now();
    body();
    runs.push(performance.now() - t0);
  }
  runs.sort((a, b) => a - b);
  return { median: runs[Math.floor(runs.length / 2)], best: runs[0] };
}

const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const opsPerSec = (ops) => (ms) => fmt((ops / ms) * 1000);

// 1. ControllerExpectations: expectCreations(key, 100) then 100 x creationObserved, per key.
{
  let exp;
  const ms = time(
    () => {
      exp = new ControllerExpectations();
    },
    () => {
      for (const key of keys) {
        exp.expectCreations(key, UIDS);
        for (let i = 0; i < UIDS; i++) exp.creationObserved(key);
        if (!exp.satisfiedExpectations(key)) throw new Error('not satisfied');
      }
    },
  );
  row('ControllerExpectations expect + observe', 'ops/s', ms, opsPerSec(KEYS * (UIDS + 2)));
}

// 2. UIDTrackingControllerExpectations: expectDeletions(key, 100 keys) then 100 x deletionObserved.
{
  let exp;
  const ms = time(
    () => {
      exp = new UIDTrackingControllerExpectations();
    },
    () => {
      for (let k = 0; k < KEYS; k++) {
        exp.expectDeletions(keys[k], podKeys[k]);
        for (const p of podKeys[k]) exp.deletionObserved(keys[k], p);
      }
    },
  );
  row('UIDTracking expectDeletions + deletionObserved', 'ops/s', ms, opsPerSec(KEYS * (UIDS + 1)));
}

// 3. ExpectationsStore: one UID per call, as a controller records each create or delete.
{
  let store;
  const ms = time(
    () => {
      store = new ExpectationsStore();
    },
    () => {
      for (let k = 0; k < KEYS; k++) {
        for (const uid of uids[k]) store.expectCreations(keys[k], [uid]);
      }
    },
  );
  row('ExpectationsStore expectCreations (1 UID a call)', 'ops/s', ms, opsPerSec(KEYS * UIDS));

  const msObs = time(
    () => {
      store = new ExpectationsStore();
      for (let k = 0; k < KEYS; k++) store.expectDeletions(keys[k], uids[k]);
    },
    () => {
      for (let k = 0; k < KEYS; k++) {
        for (const uid of uids[k]) store.observeDeletions(keys[k], [uid]);
      }
    },
  );
  row('ExpectationsStore observeDeletions (1 UID a call)', 'ops/s', msObs, opsPerSec(KEYS * UIDS));
}

// 4. syncExpectations over 1,000 keys, each with 100 UIDs listed by the cache.
function syncBench(label, populate, terminating) {
  let store;
  const ms = time(
    () => {
      store = new ExpectationsStore();
      for (let k = 0; k < KEYS; k++) populate(store, k);
    },
    () => {
      for (let k = 0; k < KEYS; k++) store.syncExpectations(keys[k], uids[k], terminating(k));
    },
  );
  row(`sync ${label}`, 'syncs/s', ms, opsPerSec(KEYS));
  row(`  µs per sync of ${UIDS} UIDs`, 'µs', ms, (t) => fmt((t * 1000) / KEYS, 2));
}
const none = () => [];
syncBench(
  'catch-up: 100 pending creations seen',
  (s, k) => s.expectCreations(keys[k], uids[k]),
  none,
);
syncBench(
  'mixed: 50 creations, 10 deletions pending, 5 terminating',
  (s, k) => {
    s.expectCreations(keys[k], uids[k].slice(0, 50));
    s.expectDeletions(keys[k], uids[k].slice(90));
  },
  (k) => [`${keys[k]}-gone-1`, `${keys[k]}-gone-2`, ...uids[k].slice(95)],
);
syncBench('steady: nothing pending', (s, k) => s.expectCreations(keys[k], []), none);

// 5. Heap per tracked UID (the UID strings exist beforehand, as they do in the informer cache).
function heapDelta(build) {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = build();
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  if (!kept) throw new Error('nothing kept');
  return after - before;
}
{
  const perUid = heapDelta(() => {
    const store = new ExpectationsStore();
    for (let k = 0; k < KEYS; k++) store.expectCreations(keys[k], uids[k]);
    return store;
  });
  const heapRow = (what, bytes) =>
    rows.push({ what, unit: 'bytes', median: fmt(bytes, 1), best: '' });
  heapRow('ExpectationsStore heap per tracked UID', perUid / (KEYS * UIDS));
  const perKey = heapDelta(() => {
    const exp = new ControllerExpectations();
    for (const key of keys) exp.expectCreations(key, UIDS);
    return exp;
  });
  heapRow('ControllerExpectations heap per key', perKey / KEYS);
  const perTracked = heapDelta(() => {
    const exp = new UIDTrackingControllerExpectations();
    for (let k = 0; k < KEYS; k++) exp.expectDeletions(keys[k], podKeys[k]);
    return exp;
  });
  heapRow('UIDTracking heap per tracked key', perTracked / (KEYS * UIDS));
}

const cols = [
  ['measurement', (r) => r.what, 'left'],
  ['median', (r) => r.median, 'right'],
  ['best round', (r) => r.best, 'right'],
  ['unit', (r) => r.unit, 'left'],
];
const widths = cols.map(([h, get]) => Math.max(h.length, ...rows.map((r) => get(r).length)));
const cell = (text, i) =>
  cols[i][2] === 'left' ? text.padEnd(widths[i]) : text.padStart(widths[i]);
const line = (cells) => `| ${cells.map(cell).join(' | ')} |`;
console.log(
  `@ctrlkit/expectations bench: ${KEYS} keys x ${UIDS} UIDs, ${ROUNDS} rounds, node ${process.version}`,
);
console.log(line(cols.map(([h]) => h)));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(cols.map(([, get]) => get(r))));
writeResults(join(dirname(fileURLToPath(import.meta.url)), 'results/expectations.json'), {
  command: `${process.env.BENCH_ROUNDS ? `BENCH_ROUNDS=${ROUNDS} ` : ''}pnpm --filter @ctrlkit/expectations bench`,
  started,
  tables: {
    expectations: {
      columns: cols.map(([h]) => h),
      rows: rows.map((r) => cols.map(([, get]) => get(r).trim() || null)),
      caption: `${KEYS.toLocaleString('en-US')} keys × ${UIDS} UIDs; each timing is the median and the best of ${ROUNDS} rounds after one warm-up (on a shared machine the best round is the closest to an idle one); heap rows are one measurement.`,
    },
  },
});
