// The informer benchmark: ctrlkit's informer, @kubernetes/client-node's makeInformer and
// client-go's shared informer (tooling/go-bench/informer, built with the machine's Go)
// side by side on one local apiserver this script starts (@ctrlkit/envtest), with the bare
// LIST of the same objects as the floor. One table, ratios ctrlkit ÷ each peer.
//
// Run: pnpm --filter @ctrlkit/runtime bench
//   (build first: pnpm --filter @ctrlkit/envtest build; pnpm --filter @ctrlkit/runtime build)
// Knobs (environment): N (ConfigMaps, 10000), ROUNDS (sync rounds, 5; REPEATS is the old
// name), WRITE_SECONDS (update stream, 10), WRITERS (updates in flight, 32),
// CTRLKIT_INFORMER_OPTIONS (extra SharedInformerFactory options as JSON for the ctrlkit
// columns, e.g. '{"pageSize":0}'; see bench/ctrlkit-informer.mjs), VARIANTS (the ctrlkit
// variants measured beside the defaults, comma-separated, default all of
// CTRLKIT_VARIANTS: 'ctrlkit list', 'ctrlkit stream', 'ctrlkit no gzip',
// 'ctrlkit metadata', 'ctrlkit json'; '' for none), GO_VARIANTS (likewise for client-go, default all of
// GO_VARIANTS in bench/children.mjs: 'client-go json', 'client-go list',
// 'client-go json list'; '' for none), BASELINE_DIST (the dist folder of another build of
// this package, e.g. main's copied to packages/runtime/.baseline-dist so that its
// dependencies resolve: measured as 'ctrlkit baseline' right after 'ctrlkit' in each round,
// and as 'ctrlkit baseline stream' right after 'ctrlkit stream' when that variant runs).
//
// 1. Seeds N ConfigMaps of ~1.47 KB of compact JSON each (managedFields included) in the
//    namespace `ctrlkit-bench-informer`, 64 creates in flight; those already there are kept.
// 2. Time to synced and memory per cached object: ROUNDS rounds; in each, every informer in
//    a fresh child process (bench/driver.mjs for Node, the Go binary for client-go), one
//    after another. The table shows medians with their range over the rounds, and the ratio
//    ctrlkit ÷ client-go of each round (runs of one round share the machine's state, so the
//    per-round ratio is steadier than the ratio of medians). Also per run: the CPU time of
//    the informer's process until synced, and of the apiserver during the run (/proc).
//    Node: gc(), heapUsed delta after sync ÷ N; Go: runtime.GC(), HeapAlloc delta ÷ N.
//    Printed below the table: every run, RSS deltas, and for Node the heap freed when the
//    synced informer is stopped and dropped ÷ N (the cache without the code compiled on the
//    way).
// 3. Events/s: the three informers (and the baseline) run CONCURRENTLY in their own processes, synced, while
//    one writer (this process) merge-patches the ConfigMaps round-robin, WRITERS requests in
//    flight, for WRITE_SECONDS: every informer sees the same stream. Each counts the update
//    events its handler receives, from the first to the last; events/s = count ÷ that span.
//    The floor column shows the writer's rate (an informer that keeps up matches it).
// 4. The tables (and the aims' verdicts) are written, with the run's commit, date, load and
//    command, to bench/results/informer.json, whose tables the README shows.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMeasuring, writeResults } from '@ctrlkit/figures';
import { apiServerCpu } from './apiserver-cpu.mjs';
import { buildClientGo, GO_VARIANTS } from './children.mjs';
import { BASELINE, BASELINE_STREAM, CTRLKIT_VARIANTS } from './ctrlkit-informer.mjs';
import { callJson, connect } from './kube.mjs';
import { printReport } from './report.mjs';
import { eventRuns, seed, syncRuns } from './workloads.mjs';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.env.N ?? 10_000);
const rounds = Number(process.env.ROUNDS ?? process.env.REPEATS ?? 5);
const writeSeconds = Number(process.env.WRITE_SECONDS ?? 10);
const writers = Number(process.env.WRITERS ?? 32);
const namespace = 'ctrlkit-bench-informer';
const names = Array.from({ length: n }, (_, i) => `cm-${String(i).padStart(5, '0')}`);
const notes = [];

/** The variants named in `variable` (default: all but the first of `known`). */
function chosen(variable, known) {
  const list = (process.env[variable] ?? Object.keys(known).slice(1).join(','))
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  for (const v of list) {
    if (!(v in known)) throw new Error(`${variable}: unknown variant ${JSON.stringify(v)}`);
  }
  return list;
}
const variants = {
  ctrlkit: chosen('VARIANTS', CTRLKIT_VARIANTS),
  go: chosen('GO_VARIANTS', GO_VARIANTS),
};

/** One line on the machine: cores and load average (1, 5, 15 min). */
function machineLoad(when) {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  return `${when}: load average ${load} on ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'})`;
}

async function main() {
  let envtest;
  try {
    envtest = await import('@ctrlkit/envtest');
  } catch (error) {
    console.error(
      `@ctrlkit/envtest is not loadable (build it: pnpm --filter @ctrlkit/envtest build): ${error.message}`,
    );
    process.exitCode = 1;
    return;
  }
  const startLoad = machineLoad('at the start');
  const goBinary = buildClientGo(notes);
  // client-go right before ctrlkit: the two runs of a round are adjacent.
  const informers = [
    'bare',
    'client-node',
    ...(goBinary ? ['client-go'] : []),
    'ctrlkit',
    ...(process.env.BASELINE_DIST ? [BASELINE] : []),
    ...variants.ctrlkit.flatMap((variant) =>
      variant === 'ctrlkit stream' && process.env.BASELINE_DIST
        ? [variant, BASELINE_STREAM]
        : [variant],
    ),
    ...(goBinary ? variants.go : []),
  ];
  if (!existsSync(join(here, '../dist/index.js'))) {
    console.error(
      '[bench] ../dist/index.js is missing: build with pnpm --filter @ctrlkit/runtime build to get the ctrlkit column.',
    );
  }
  const plane = await envtest.startControlPlane({
    apiServerFlags: {
      'max-requests-inflight': '2000',
      'max-mutating-requests-inflight': '1000',
    },
  });
  const conn = await connect(plane.kubeConfig, 64);
  try {
    const { gitVersion } = await callJson(conn, 'GET', '/version');
    const setup = { plane, goBinary, namespace, n, names, notes };
    const compactBytes = await seed(conn, setup);
    const apiServer = apiServerCpu(plane.apiServerPort);
    if (apiServer.read() === undefined) {
      notes.push('apiserver CPU: not readable here (needs Linux /proc); the row shows -.');
    }
    const sync = await syncRuns(setup, informers, rounds, apiServer);
    const live = ['client-node', 'client-go', 'ctrlkit', BASELINE].filter(
      (which) => informers.includes(which) && !sync.skipped[which],
    );
    console.error(`[bench] update stream for ${writeSeconds} s, informers: ${live.join(', ')}`);
    const events = await eventRuns(setup, live, conn, { seconds: writeSeconds, writers });
    const go = spawnSync('go', ['version']).stdout?.toString().trim();
    const tables = printReport({
      sync,
      events,
      compactBytes,
      n,
      rounds,
      variants,
      notes,
      header: [
        '@ctrlkit/runtime informer vs @kubernetes/client-node 2.0.1 makeInformer vs client-go v0.37.2 shared informer',
        `kube-apiserver ${gitVersion} on 127.0.0.1 (envtest), node ${process.version}, ${go || 'no Go'}, ${n.toLocaleString('en-US')} ConfigMaps`,
        startLoad,
        machineLoad('at the end'),
        ...(process.env.CTRLKIT_INFORMER_OPTIONS
          ? [`ctrlkit informer options: ${process.env.CTRLKIT_INFORMER_OPTIONS}`]
          : []),
      ],
    });
    writeResults(join(here, 'results/informer.json'), { command: command(), started, tables });
  } finally {
    conn.agent.destroy();
    await plane.stop();
  }
}

/** The command line of this run: the knobs set in the environment, then the script. */
function command() {
  const knobs = ['N', 'ROUNDS', 'REPEATS', 'WRITE_SECONDS', 'WRITERS', 'VARIANTS', 'GO_VARIANTS'];
  knobs.push('CTRLKIT_INFORMER_OPTIONS', 'BASELINE_DIST');
  const set = knobs.filter((k) => process.env[k] !== undefined);
  return [
    ...set.map(
      (k) => `${k}=${/^[\w./,-]*$/.test(process.env[k]) ? process.env[k] : `'${process.env[k]}'`}`,
    ),
    'pnpm --filter @ctrlkit/runtime bench:informer',
  ].join(' ');
}

await main();
