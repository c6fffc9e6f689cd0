// pnpm --filter @ctrlkit/node-controller bench:bin -- --scale [--sizes 1000,5000,10000]
//   [--rounds 3] [--workers 10] [--steady-seconds 60]
//
// The virtual kubelet's scale curves (issue 36): the shipped bin (as bench/bin.mjs runs it) and
// Go virtual-kubelet v1.13.0's node package agent, side by side on one local control plane, each
// with --sizes pods on a node of its own. Both run upstream's pod queue limiters, whose overall
// bucket (10 pods/s, burst 100) sets the pace: each side idles most of the time, so running them
// at once measures the same as one after the other (CPU is each process's own) and halves a run
// (1k/5k/10k × 3 rounds: ~1.5 h instead of ~3). Per size and round, each side: its node registers, a
// baseline of 10 s is sampled, the pods are created (32 at a time) and run; once all are Running
// and 5 s have passed, a steady window of --steady-seconds (status sync, node ping, lease and
// node status only) is measured; the agent is stopped and the pods are force-deleted (the
// deletion path is what bench/bin.mjs measures, and at 10k pods it would take as long again).
// Rounds go size by size; the results file is rewritten after every round, so a run cut short
// keeps the rounds it finished.
//
// Figures per side (median of the rounds, and their range): seconds from the first creation to
// all Running; API requests per pod from the baseline to all Running; CPU ms per minute in the
// steady window; peak heap (ctrlkit: V8's used heap sampled every 20 ms inside the bin; Go:
// HeapAlloc sampled every second) and peak RSS (VmHWM); the heap with all pods Running (the
// lowest sample of the steady window), its growth per pod over the baseline's lowest, and per
// pod between consecutive sizes (the slope, which leaves out what does not grow with the pods).
// Writes bench/results/bin-scale.json, its tables and an SVG per curve (tooling/figures).

import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { noopLogger, startControlPlane } from '@ctrlkit/envtest';
import { pointOf, startMeasuring, writeResults } from '@ctrlkit/figures';
import { createClient } from '@ctrlkit/runtime/client';
import { startOnNode } from './bin-agents.mjs';
import { buildGo } from './go-agent.mjs';
import { podsRound } from './harness.mjs';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const flag = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const sizes = flag('--sizes', '1000,5000,10000').split(',').map(Number);
const rounds = Number(flag('--rounds', '3'));
const workers = Number(flag('--workers', '10'));
const steadySeconds = Number(flag('--steady-seconds', '60'));
for (const [name, values] of Object.entries({
  sizes,
  rounds: [rounds],
  workers: [workers],
  'steady-seconds': [steadySeconds],
})) {
  if (!values.every((v) => Number.isInteger(v) && v > 0))
    throw new Error(`--${name} takes whole numbers > 0, got ${values.join(',')}`);
}
const BASELINE_SECONDS = 10;
const SETTLE_SECONDS = 5;
const SIDES = ['ctrlkit', 'go'];
const log = (line) => console.error(`[bin-scale] ${line}`);

/** Gathers `agent.heapSamples()` every second into the current phase's list until `stop()`. */
function sampleHeap(agent) {
  const phases = {};
  let phase = 'start';
  let running = true;
  const add = (samples) => {
    phases[phase] ??= [];
    phases[phase].push(...samples);
  };
  const loop = (async () => {
    while (running) {
      add(await agent.heapSamples());
      await sleep(1000);
    }
  })();
  return {
    /** Samples from now on count to `name`. */
    async mark(name) {
      add(await agent.heapSamples());
      phase = name;
    },
    async stop() {
      running = false;
      await loop;
      return phases;
    },
  };
}

/** One side, one size, one round: the figures of {@link measured}'s rows. */
async function runOne(plane, side, goBinary, n, round) {
  const client = createClient(plane.kubeConfig, { qps: Number.POSITIVE_INFINITY });
  const nodeName = `scale-${side}-${n}-r${round}`;
  const agent = await startOnNode(client, plane, side, goBinary, nodeName, { workers });
  const heap = sampleHeap(agent);
  await sleep(BASELINE_SECONDS * 1000);
  await heap.mark('create');
  const atStart = await agent.counters();
  const { seconds, running } = await podsRound(client, {
    namespace: nodeName,
    nodeName,
    n,
    force: true,
    whenRunning: async () => {
      const atRunning = await agent.counters();
      // From here the bin's heap probe samples once a second, as the Go agent is sampled.
      agent.quiet();
      await heap.mark('settle');
      await sleep(SETTLE_SECONDS * 1000);
      await heap.mark('steady');
      const steadyFrom = await agent.counters();
      await sleep(steadySeconds * 1000);
      const steadyTo = await agent.counters();
      const phases = await heap.stop();
      agent.checkAlive();
      const memory = await agent.stop();
      return { atRunning, steadyFrom, steadyTo, phases, memory };
    },
  });
  await client
    .requestJson('DELETE', `/api/v1/namespaces/${nodeName}/events`)
    .catch((error) => log(`events of ${nodeName} not deleted: ${error.message}`));
  await client.delete('nodes', nodeName).catch(() => {});
  await client.delete('namespaces', nodeName).catch(() => {});
  client.close();
  const { atRunning, steadyFrom, steadyTo, phases, memory } = running;
  const all = Object.values(phases).flat();
  const result = {
    secondsToRunning: seconds,
    requestsPerPod: (atRunning.requests - atStart.requests) / n,
    steadyCpuMsPerMinute: ((steadyTo.cpuMs - steadyFrom.cpuMs) * 60) / steadySeconds,
    steadyRequestsPerMinute: ((steadyTo.requests - steadyFrom.requests) * 60) / steadySeconds,
    peakHeapMB: memory.peakHeapMB ?? Math.max(...all),
    peakRssMB: memory.peakRssMB,
    heapKBPerPod: ((Math.min(...phases.steady) - Math.min(...phases.start)) * 1024) / n,
    steadyHeapMB: Math.min(...phases.steady),
  };
  log(`${side} ${n} pods, round ${round}: ${JSON.stringify(result)}`);
  return result;
}

/** The figures, their units and what the issue aims at. */
const FIGURES = {
  running: { field: 'secondsToRunning', unit: 's to all Running', aim: '<= 1.2x Go at 10k' },
  'steady-cpu': {
    field: 'steadyCpuMsPerMinute',
    unit: 'CPU ms per minute, all Running',
    aim: "<= Go's",
  },
  'heap-per-pod': {
    field: 'heapKBPerPod',
    unit: 'KB heap growth per pod',
    aim: "<= 1.0x Go's",
  },
  'steady-heap': { field: 'steadyHeapMB', unit: 'MB heap, all Running (lowest sample)' },
  'peak-heap': { field: 'peakHeapMB', unit: 'MB peak heap' },
  'peak-rss': { field: 'peakRssMB', unit: 'MB peak RSS' },
  requests: { field: 'requestsPerPod', unit: 'API requests per pod to Running' },
  'steady-requests': {
    field: 'steadyRequestsPerMinute',
    unit: 'API requests per minute, all Running',
  },
};

const cell = (p) => {
  const d = p.y >= 100 ? 0 : p.y >= 10 ? 1 : 2;
  return p.min === p.max
    ? p.y.toFixed(d)
    : `${p.y.toFixed(d)} (${p.min.toFixed(d)}–${p.max.toFixed(d)})`;
};

/** Table and curve of one figure from `measured[n][side]` (a list of rounds' results). */
function figure(measured, name, { field, unit, aim }) {
  const done = sizes.filter((n) => SIDES.every((s) => measured[n]?.[s]?.length));
  const point = (n, side) =>
    pointOf(
      n,
      measured[n][side].map((r) => r[field]),
    );
  const rows = done.map((n) => {
    const [ours, go] = SIDES.map((side) => point(n, side));
    const ratios = measured[n].ctrlkit
      .map((r, i) => r[field] / measured[n].go[i]?.[field])
      .filter(Number.isFinite);
    const spread =
      ratios.length > 1
        ? ` (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`
        : '';
    const ratio = go.y === 0 ? '-' : `${(ours.y / go.y).toFixed(2)}x${spread}`;
    return [n, cell(ours), cell(go), ratio];
  });
  const roundsDone = Math.min(...done.map((n) => measured[n].go.length));
  const title = `Virtual kubelet: ${unit} (lower is better)`;
  return {
    table: {
      columns: ['pods', `ctrlkit ${unit}`, `Go ${unit}`, 'ctrlkit / Go'],
      rows,
      caption:
        `Median of ${roundsDone} round${roundsDone === 1 ? '' : 's'} (lowest–highest); the ratio of the medians, ` +
        `and the range of the ratios of the rounds.${aim ? ` Aim (issue 36): ${aim}.` : ''}`,
    },
    curve: {
      title,
      x: { label: 'pods on one node' },
      y: { label: unit },
      series: SIDES.map((side) => ({
        name: side === 'go' ? 'Go virtual-kubelet v1.13.0' : 'ctrlkit-virtual-kubelet',
        points: done.map((n) => point(n, side)),
      })),
    },
    name,
  };
}

/**
 * Heap per pod between consecutive sizes: the slope of the steady heap's medians, which leaves
 * out what does not grow with the pods (code compiled as the first pods pass, caches filled once).
 */
function heapSlope(measured) {
  const done = sizes.filter((n) => SIDES.every((s) => measured[n]?.[s]?.length));
  const median = (n, side) =>
    pointOf(
      n,
      measured[n][side].map((r) => r.steadyHeapMB),
    ).y;
  const rows = done.slice(1).map((n, i) => {
    const from = done[i];
    const [ours, go] = SIDES.map(
      (side) => ((median(n, side) - median(from, side)) * 1024) / (n - from),
    );
    return [`${from} → ${n}`, ours.toFixed(1), go.toFixed(1), `${(ours / go).toFixed(2)}x`];
  });
  return {
    columns: ['pods', 'ctrlkit KB per pod', 'Go KB per pod', 'ctrlkit / Go'],
    rows,
    caption:
      'Heap growth per pod between two sizes: the difference of the medians of the heap with all pods ' +
      "Running (lowest sample of the steady window), over the pods added. Aim (issue 36): <= 1.0x Go's.",
  };
}

function write(measured, notes) {
  const figures = Object.entries(FIGURES).map(([name, spec]) => figure(measured, name, spec));
  writeResults(join(here, 'results/bin-scale.json'), {
    command: `pnpm --filter @ctrlkit/node-controller bench:bin -- ${args.join(' ')}`,
    started,
    tables: Object.fromEntries(
      [...figures.map((f) => [f.name, f.table]), ['heap-slope', heapSlope(measured)]].map(
        ([name, table]) => [
          name,
          notes.length ? { ...table, caption: `${table.caption} ${notes.join(' ')}` } : table,
        ],
      ),
    ),
    curves: Object.fromEntries(figures.map((f) => [`${f.name}-curve`, f.curve])),
  });
  for (const f of figures) {
    console.log(`\n${f.name}`);
    console.table(f.table.rows);
  }
}

const notes = [];
const goBinary = buildGo(notes);
if (goBinary === undefined) throw new Error(notes.join(' '));
log(`sizes ${sizes.join(', ')}; ${rounds} rounds; ${workers} workers; steady ${steadySeconds} s`);
const plane = await startControlPlane({ logger: noopLogger });
const measured = {};
try {
  for (let round = 1; round <= rounds; round++) {
    for (const n of sizes) {
      const results = await Promise.all(
        SIDES.map((side) => runOne(plane, side, goBinary, n, round)),
      );
      measured[n] ??= { ctrlkit: [], go: [] };
      for (const [i, side] of SIDES.entries()) measured[n][side].push(results[i]);
    }
    write(measured, notes);
  }
} finally {
  await plane.stop();
}
