// The informer's scale curves (issue 36): ctrlkit's informer against client-go v0.37's shared
// informer (tooling/go-bench/informer) on 10k / 50k / 100k ConfigMaps, in one run on one local
// apiserver (@ctrlkit/envtest): time to synced, heap per cached object, and CPU per watch event
// under a steady stream of updates. Each size has its own namespace, seeded once (64 creates in
// flight; those already there are kept). Per size, ROUNDS rounds of sync runs (client-go, then
// ctrlkit, each in a fresh process) and ROUNDS update streams (both informers at once, the same
// stream). Written to bench/results/scale.json and its SVGs.
//
// Run: pnpm --filter @ctrlkit/runtime bench -- --scale [--sizes 10000,50000,100000] [--rounds 3]
//   [--write-seconds 5] (build first: pnpm --filter @ctrlkit/runtime build)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startControlPlane } from '@ctrlkit/envtest';
import { pointOf, startMeasuring, writeResults } from '@ctrlkit/figures';
import { apiServerCpu } from './apiserver-cpu.mjs';
import { buildClientGo } from './children.mjs';
import { callJson, connect } from './kube.mjs';
import { eventRuns, seed, syncRuns } from './workloads.mjs';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};
const sizes = flag('--sizes', '10000,50000,100000').split(',').map(Number);
const rounds = Number(flag('--rounds', 3));
const writeSeconds = Number(flag('--write-seconds', 5));
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
const log = (line) => console.error(`[scale] ${line}`);

/** One size: seed its namespace, then the sync rounds and the update streams. */
async function measureSize(plane, conn, goBinary, n, notes) {
  const namespace = `ctrlkit-bench-scale-${n}`;
  const names = Array.from({ length: n }, (_, i) => `cm-${String(i).padStart(6, '0')}`);
  const setup = { plane, goBinary, namespace, n, names, notes };
  await seed(conn, setup);
  const sync = await syncRuns(setup, sides, rounds, apiServerCpu(plane.apiServerPort));
  const events = [];
  for (let round = 0; round < rounds; round++) {
    const run = await eventRuns(setup, sides, conn, { seconds: writeSeconds, writers: 32 });
    log(
      `${n}: stream ${round + 1}: ${run.writer.writes} writes; ${sides
        .map(
          (s) => `${s} ${run.results[s].events} events, ${cpuPerEvent(run, s).toFixed(1)} µs/event`,
        )
        .join('; ')}`,
    );
    events.push(run);
  }
  return { sync, events };
}

function cpuPerEvent(run, side) {
  const r = run.results[side];
  return r?.events ? (r.cpuMs * 1000) / r.events : Number.NaN;
}

/** Per side and size, the rounds of each figure. */
function roundsOf({ sync, events }) {
  const of = (side) => ({
    syncedMs: sync.runs[side].map((r) => r.syncedMs),
    heapPerObject: sync.runs[side].map((r) => r.heapPerObject),
    cpuPerEvent: events.map((run) => cpuPerEvent(run, side)),
  });
  return Object.fromEntries(sides.map((side) => [side, of(side)]));
}

const digits = (v) => (v >= 100 ? 0 : 1);
const cell = ({ y, min, max }) =>
  `${y.toFixed(digits(y))} (${min.toFixed(digits(min))}–${max.toFixed(digits(max))})`;

/** The table and curve of one figure over the sizes. */
function figure(measured, field, { unit, title, aim }) {
  const rows = sizes.map((n) => {
    const [peer, ours] = sides.map((side) => pointOf(n, measured[n][side][field]));
    const perRound = measured[n].ctrlkit[field].map(
      (v, i) => v / measured[n]['client-go'][field][i],
    );
    const spread = pointOf(n, perRound);
    return [
      n,
      cell(ours),
      cell(peer),
      `${(ours.y / peer.y).toFixed(2)}x (rounds ${spread.min.toFixed(2)}–${spread.max.toFixed(2)})`,
    ];
  });
  const series = sides.map((side) => ({
    name: side === 'client-go' ? 'client-go v0.37.2' : 'ctrlkit',
    points: sizes.map((n) => pointOf(n, measured[n][side][field])),
  }));
  return {
    table: {
      columns: ['ConfigMaps', `ctrlkit ${unit}`, `client-go ${unit}`, 'ctrlkit / client-go'],
      rows,
      caption: `Median of ${rounds} rounds (lowest–highest); the ratio of the medians, and the range of the ratios of rounds run side by side. Aim: ${aim}.`,
    },
    curve: {
      title,
      x: { label: 'ConfigMaps', scale: 'log' },
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
  });
  const conn = await connect(plane.kubeConfig, 64);
  const measured = {};
  try {
    const { gitVersion } = await callJson(conn, 'GET', '/version');
    log(`kube-apiserver ${gitVersion}; sizes ${sizes.join(', ')}; ${rounds} rounds`);
    for (const n of sizes)
      measured[n] = roundsOf(await measureSize(plane, conn, goBinary, n, notes));
  } finally {
    conn.agent.destroy();
    await plane.stop();
  }
  const figures = {
    synced: figure(measured, 'syncedMs', {
      unit: 'ms to synced',
      title: 'Informer: time to synced (lower is better)',
      aim: '<= 1.0x client-go at every size',
    }),
    heap: figure(measured, 'heapPerObject', {
      unit: 'B heap per object',
      title: 'Informer: heap per cached ConfigMap (lower is better)',
      aim: '<= 0.7x client-go, flat with size',
    }),
    events: figure(measured, 'cpuPerEvent', {
      unit: 'µs CPU per watch event',
      title: 'Informer: CPU per watch event (lower is better)',
      aim: '<= 1.0x client-go',
    }),
  };
  for (const [name, { table }] of Object.entries(figures)) {
    console.log(`\n${name}`);
    console.table(table.rows);
  }
  for (const note of notes) console.log(`note: ${note}`);
  writeResults(join(here, 'results/scale.json'), {
    command: `pnpm --filter @ctrlkit/runtime bench -- ${process.argv.slice(2).join(' ')}`,
    started,
    tables: Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, v.table])),
    curves: Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${k}-curve`, v.curve])),
  });
}

await main();
