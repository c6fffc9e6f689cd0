// The informer's scale curves (issue 36): ctrlkit's informer against client-go v0.37's shared
// informer (tooling/go-bench/informer) on 10k / 50k / 100k ConfigMaps (or pods with
// --resource pods), in one run on one local apiserver (@ctrlkit/envtest): time to synced, heap
// per cached object, CPU per watch event under a steady stream of updates, and the heap after a
// relist. Each size has its own namespace, seeded once (64 creates in flight). Per size, ROUNDS
// rounds of sync runs (client-go, then ctrlkit, each in a fresh process) and ROUNDS update
// streams (both informers at once, the same stream), each followed by a relist of both (the
// apiserver restarted over a compacted etcd: 410 Gone). Written to bench/results/scale.json
// (scale-pods.json for pods) and its SVGs.
//
// Run: pnpm --filter @ctrlkit/runtime bench -- --scale [--resource configmaps|pods]
//   [--sizes 10000,50000,100000] [--rounds 3] [--write-seconds 20]
//   (build first: pnpm --filter @ctrlkit/runtime build)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startControlPlane } from '@ctrlkit/envtest';
import { pointOf, startMeasuring, writeResults } from '@ctrlkit/figures';
import { apiServerCpu } from './apiserver-cpu.mjs';
import { buildClientGo } from './children.mjs';
import { BASELINE } from './ctrlkit-informer.mjs';
import { callJson, connect } from './kube.mjs';
import { RESOURCES } from './objects.mjs';
import { eventRuns, seed, syncRuns } from './workloads.mjs';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};
const resource = flag('--resource', 'configmaps');
if (!RESOURCES.includes(resource)) {
  throw new Error(`--resource takes ${RESOURCES.join(' or ')}, got ${resource}`);
}
const kind = resource === 'pods' ? 'Pods' : 'ConfigMaps';
const defaultSizes = '10000,50000,100000';
const sizes = flag('--sizes', defaultSizes).split(',').map(Number);
const rounds = Number(flag('--rounds', 3));
// 20 s: a steady state. In the first seconds after a sync, a process's figure is mostly whether
// its first major collection falls in the window (V8 sizes the old generation after it), not
// what an event costs: old and new builds measured 56 and 50 µs per event over 5 s, 39 and 40
// over 30 s, side by side on one stream.
const writeSeconds = Number(flag('--write-seconds', 20));
for (const [name, values] of Object.entries({
  sizes,
  rounds: [rounds],
  writeSeconds: [writeSeconds],
})) {
  if (!values.every((v) => Number.isInteger(v) && v > 0)) {
    throw new Error(`--${name} takes whole numbers > 0, got ${values.join(',')}`);
  }
}
const sides = ['client-go', 'ctrlkit'];
/**
 * With BASELINE_DIST (a build from before a change, see ctrlkit-informer.mjs), the sync rounds
 * and the update streams also run that build's informer: time to synced, heap per object and
 * CPU per watch event before and after, in the same rounds and streams.
 */
const streamSides = process.env.BASELINE_DIST ? [...sides, BASELINE] : sides;
const log = (line) => console.error(`[scale] ${line}`);

/** One size: seed its namespace, then the sync rounds and the update streams. */
async function measureSize(plane, conn, goBinary, n, notes) {
  const namespace = `ctrlkit-bench-scale-${resource}-${n}`;
  const prefix = resource === 'pods' ? 'pod' : 'cm';
  const names = Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(6, '0')}`);
  const setup = { plane, goBinary, namespace, n, names, notes, resource };
  await seed(conn, setup);
  // The baseline build (BASELINE_DIST) also syncs in each round: time to synced before and after.
  const sync = await syncRuns(setup, streamSides, rounds, apiServerCpu(plane.apiServerPort));
  const events = [];
  for (let round = 0; round < rounds; round++) {
    const run = await eventRuns(setup, streamSides, conn, {
      seconds: writeSeconds,
      writers: 32,
      relist: true,
    });
    log(
      `${n}: stream ${round + 1}: ${run.writer.writes} writes; ${streamSides
        .map(
          (s) =>
            `${s} ${run.results[s].events} events, ${cpuPerEvent(run, s).toFixed(1)} µs/event${threadsOf(run.results[s])}`,
        )
        .join('; ')}`,
    );
    log(
      `${n}: relist ${round + 1}: ${sides
        .map((s) => {
          const { before, after, waitedMs } = run.relist[s];
          return `${s} heap ${(before / 1e6).toFixed(1)} -> ${(after / 1e6).toFixed(1)} MB (relisted in ${(waitedMs / 1000).toFixed(1)} s)`;
        })
        .join('; ')}`,
    );
    events.push(run);
  }
  return { sync, events };
}

/** A Node informer's CPU per event by kind of thread (see driver.mjs), for the log. */
function threadsOf({ threadsCpuMs, events }) {
  if (threadsCpuMs === undefined || !events) return '';
  const parts = Object.entries(threadsCpuMs).map(
    ([kind, ms]) => `${kind} ${((ms * 1000) / events).toFixed(1)}`,
  );
  return ` (${parts.join(', ')})`;
}

function cpuPerEvent(run, side) {
  const r = run.results[side];
  return r?.events ? (r.cpuMs * 1000) / r.events : Number.NaN;
}

/** Per side and size, the rounds of each figure. */
function roundsOf(n, { sync, events }) {
  const of = (side) => ({
    syncedMs: sync.runs[side].map((r) => r.syncedMs),
    heapPerObject: sync.runs[side].map((r) => r.heapPerObject),
    cpuPerEvent: events.map((run) => cpuPerEvent(run, side)),
    beforeRelist: events.map((run) => run.relist[side].before / n),
    afterRelist: events.map((run) => run.relist[side].after / n),
    growth: events.map((run) => run.relist[side].after / run.relist[side].before),
  });
  const measured = Object.fromEntries(sides.map((side) => [side, of(side)]));
  if (streamSides.includes(BASELINE)) {
    measured[BASELINE] = {
      syncedMs: sync.runs[BASELINE].map((r) => r.syncedMs),
      heapPerObject: sync.runs[BASELINE].map((r) => r.heapPerObject),
      cpuPerEvent: events.map((run) => cpuPerEvent(run, BASELINE)),
    };
  }
  return measured;
}

const digits = (v) => (v >= 100 ? 0 : v >= 10 ? 1 : 2);
const cell = ({ y, min, max }) =>
  `${y.toFixed(digits(y))} (${min.toFixed(digits(min))}–${max.toFixed(digits(max))})`;

/** The median (lowest–highest) of ours over the peer's, and the range of the ratios of rounds. */
function ratio(measured, n, field, side) {
  const [peer, ours] = ['client-go', side].map((s) => pointOf(n, measured[n][s][field]));
  const perRound = measured[n][side][field].map((v, i) => v / measured[n]['client-go'][field][i]);
  const spread = pointOf(n, perRound);
  return `${(ours.y / peer.y).toFixed(2)}x (rounds ${spread.min.toFixed(2)}–${spread.max.toFixed(2)})`;
}

/**
 * The table and curve of one figure over the sizes; with a baseline build measured for
 * `field`, its columns too (before the change: `ctrlkit before`).
 */
function figure(measured, field, { unit, title, aim, note = '' }) {
  const done = sizes.filter((n) => measured[n]);
  const before = measured[sizes[0]][BASELINE]?.[field] !== undefined;
  const rows = done.map((n) => {
    const [peer, ours] = sides.map((side) => pointOf(n, measured[n][side][field]));
    const row = [n, cell(ours), cell(peer), ratio(measured, n, field, 'ctrlkit')];
    if (!before) return row;
    const base = pointOf(n, measured[n][BASELINE][field]);
    return [...row, cell(base), ratio(measured, n, field, BASELINE)];
  });
  const columns = [kind, `ctrlkit ${unit}`, `client-go ${unit}`, 'ctrlkit / client-go'];
  if (before) columns.push(`ctrlkit before ${unit}`, 'before / client-go');
  const names = {
    'client-go': 'client-go v0.37.2',
    ctrlkit: 'ctrlkit',
    [BASELINE]: 'ctrlkit before',
  };
  const series = (before ? [...sides, BASELINE] : sides).map((side) => ({
    name: names[side],
    points: done.map((n) => pointOf(n, measured[n][side][field])),
  }));
  const beforeNote = before
    ? ` "ctrlkit before" is the build from before the change (BASELINE_DIST: ${process.env.BASELINE_NAME ?? process.env.BASELINE_DIST}), in the same streams.`
    : '';
  return {
    table: {
      columns,
      rows,
      caption: `Median of ${rounds} rounds (lowest–highest); the ratio of the medians, and the range of the ratios of rounds run side by side.${note}${beforeNote} Aim: ${aim}.`,
    },
    curve: {
      title,
      x: { label: kind, scale: 'log' },
      y: { label: unit },
      series: [...series].reverse(),
    },
  };
}

async function main() {
  const notes = [];
  const goBinary = buildClientGo(notes);
  if (goBinary === undefined) throw new Error(notes.join(' '));
  const plane = await startControlPlane({
    apiServerFlags: { 'max-requests-inflight': '2000', 'max-mutating-requests-inflight': '1000' },
    // Seeding writes tens of thousands of objects; the informers never read etcd's disk.
    etcdFlags: { 'unsafe-no-fsync': 'true' },
    // The relists compact etcd themselves; the apiserver's own compaction would not expire a
    // watch any sooner, only at a time the bench does not choose.
    etcdCompactionIntervalMs: 0,
  });
  const conn = await connect(plane.kubeConfig, 64);
  const measured = {};
  try {
    const { gitVersion } = await callJson(conn, 'GET', '/version');
    log(`kube-apiserver ${gitVersion}; sizes ${sizes.join(', ')}; ${rounds} rounds`);
    // The results file is rewritten after every size: a run cut short keeps the sizes it did.
    for (const n of sizes) {
      measured[n] = roundsOf(n, await measureSize(plane, conn, goBinary, n, notes));
      report(measured, notes);
    }
  } finally {
    conn.agent.destroy();
    await plane.stop();
  }
}

/** Prints the tables of the sizes measured so far and writes them with their curves. */
function report(measured, notes) {
  const figures = {
    synced: figure(measured, 'syncedMs', {
      unit: 'ms to synced',
      title: 'Informer: time to synced (lower is better)',
      aim: '<= 1.0x client-go at every size',
    }),
    heap: figure(measured, 'heapPerObject', {
      unit: 'B heap per object',
      title: `Informer: heap per cached ${kind === 'Pods' ? 'Pod' : 'ConfigMap'} (lower is better)`,
      aim: '<= 0.7x client-go, flat with size',
    }),
    events: figure(measured, 'cpuPerEvent', {
      unit: 'µs CPU per watch event',
      title: 'Informer: CPU per watch event (lower is better)',
      aim: '<= 1.0x client-go',
    }),
    relist: figure(measured, 'afterRelist', {
      unit: 'B heap per object after a relist',
      title: 'Informer: heap per object after a relist (lower is better)',
      aim: 'no growth across the relist, <= 0.7x client-go',
      note: ` The live heap of the whole process after the relist settled (1 s after the informer synced past the compacted revision, then a full GC), over the objects; the process's heap before the relist (after its sync and the update stream) is in the relist-growth table.`,
    }),
    'relist-growth': figure(measured, 'growth', {
      unit: 'heap after / before relist',
      title: 'Informer: heap after a relist over heap before it (lower is better)',
      aim: 'no growth (1.0)',
    }),
  };
  for (const [name, { table }] of Object.entries(figures)) {
    console.log(`\n${name}`);
    console.table(table.rows);
  }
  for (const note of notes) console.log(`note: ${note}`);
  writeResults(join(here, resource === 'pods' ? 'results/scale-pods.json' : 'results/scale.json'), {
    command: `pnpm --filter @ctrlkit/runtime bench -- ${process.argv.slice(2).join(' ')}`,
    started,
    tables: Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, v.table])),
    curves: Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${k}-curve`, v.curve])),
  });
}

await main();
