// `pnpm --filter @ctrlkit/dra-resourceslice bench -- --scale [--rounds 3] [--sizes 100,1000]
// [--baseline <dist folder>]`: how publishing grows
// (issue 36), side by side with the Go controller (k8s.io/dynamic-resource-allocation v0.35.0,
// tooling/go-bench/dra-resourceslice -scale) in the same run. Two kinds of driver, each at 100
// and 1,000 pools of one slice of 8 devices: node-local (one controller per node, as kubelet
// plugins run; all of one side in one process, 100 or 1,000 controllers sharing one client)
// and network-attached (one controller, no owner, 100 or 1,000 pools). Go shares one clientset,
// ours one client. Each round runs, per
// point, the Go program, then ours (scale-child.mjs), each in its own process with its own
// driver name, against one local control plane (@ctrlkit/envtest) with the Nodes created
// beforehand. Figures per run: time until every slice is created (the controllers' stats),
// the API calls of the run (ResourceSlice and Node requests in the apiserver's audit log, from
// the child's start to its exit, 2 s after publishing), the process's CPU time, and its live
// heap after GC. With --baseline (another build of this package, e.g. the commit before a fix,
// copied to packages/dra-resourceslice/.baseline-dist), a third side runs it after ours in each
// round: before and after in one run. Written to bench/results/scale.json and its SVGs. Needs `pnpm build` first.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { readAuditLog, startControlPlane } from '@ctrlkit/envtest';
import { pointOf, startMeasuring, writeResults } from '@ctrlkit/figures';
import { goProgram } from '@ctrlkit/go-programs';
import { createClient } from '@ctrlkit/runtime/client';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const flag = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
};
const rounds = Number(flag('--rounds', 3));
const baseline = flag('--baseline', undefined);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number >= 1');
const sizes = flag('--sizes', '100,1000').split(',').map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error('--sizes takes whole numbers >= 1, comma-separated');
const DEVICES = 8;
const QUIET_MS = 2_000;
const kinds = ['node-local', 'network'];
const sides = ['ctrlkit', ...(baseline ? ['ctrlkit baseline'] : []), 'Go'];
const log = (line) => console.log(`[dra scale] ${line}`);

/** Runs one side's process for one point; resolves with its JSON line. */
async function runChild(side, plane, kind, size, driver) {
  const args = [
    `--kubeconfig=${plane.kubeconfigPath}`,
    `--driver=${driver}`,
    `--nodes=${kind === 'node-local' ? size : 0}`,
    `--pools=${size}`,
    `--devices=${DEVICES}`,
  ];
  const child =
    side === 'Go'
      ? spawn(goProgram('bench-dra-resourceslice'), ['-scale', ...args, `-quiet=${QUIET_MS}ms`], {
          stdio: ['ignore', 'pipe', 'inherit'],
        })
      : spawn(
          process.execPath,
          [
            '--expose-gc',
            join(here, 'scale-child.mjs'),
            ...args.flatMap((a) => a.split('=')),
            '--quiet-ms',
            String(QUIET_MS),
            ...(side === 'ctrlkit baseline' ? ['--module', baseline] : []),
          ],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`${side} at ${size} ${kind} exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1));
}

/** The audit log's requests since `offset`, by verb (one per request). */
async function callsSince(plane, offset) {
  await sleep(500);
  const { events, nextOffset } = await readAuditLog(plane.auditLogPath, offset);
  const ids = new Map();
  for (const e of events) ids.set(e.auditID, e.verb);
  const byVerb = {};
  for (const verb of ids.values()) byVerb[verb] = (byVerb[verb] ?? 0) + 1;
  return { byVerb, total: ids.size, nextOffset };
}

/**
 * The apiserver's `apiserver_watch_cache_read_wait_seconds` so far: how many reads waited for
 * the watch cache to catch up with etcd (a streaming list from `""`, a consistent LIST) and
 * the seconds they waited in sum.
 */
async function watchCacheWaits(client) {
  const { body } = await client.request('GET', '/metrics', { headers: { Accept: 'text/plain' } });
  const waits = { count: 0, seconds: 0 };
  for (const line of body.toString().split('\n')) {
    const value = Number(line.split(' ').at(-1));
    if (line.startsWith('apiserver_watch_cache_read_wait_seconds_count')) waits.count += value;
    if (line.startsWith('apiserver_watch_cache_read_wait_seconds_sum')) waits.seconds += value;
  }
  return waits;
}

async function createNodes(plane, n) {
  const client = createClient(plane.kubeConfig, { qps: Number.POSITIVE_INFINITY });
  for (let i = 0; i < n; i += 50) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + 50); j++) {
      const name = `node-${String(j).padStart(4, '0')}`;
      batch.push(client.create('nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } }));
    }
    await Promise.all(batch);
  }
}

const plane = await startControlPlane({
  apiServerFlags: { 'max-requests-inflight': '2000', 'max-mutating-requests-inflight': '1000' },
  auditPolicy: {
    omitStages: ['RequestReceived'],
    rules: [
      {
        level: 'Metadata',
        resources: [
          { group: 'resource.k8s.io', resources: ['resourceslices'] },
          { group: '', resources: ['nodes'] },
        ],
      },
      { level: 'None' },
    ],
  },
});
/** measured[kind][size][side]: the runs of each round. */
const measured = Object.fromEntries(
  kinds.map((k) => [
    k,
    Object.fromEntries(sizes.map((s) => [s, Object.fromEntries(sides.map((d) => [d, []]))])),
  ]),
);
const admin = createClient(plane.kubeConfig);
try {
  await createNodes(plane, Math.max(...sizes));
  let offset = (await callsSince(plane, 0)).nextOffset;
  for (let r = 0; r < rounds; r++) {
    for (const kind of kinds) {
      for (const size of sizes) {
        for (const side of ['Go', ...sides.filter((d) => d !== 'Go')]) {
          const prefix = { Go: 'go', ctrlkit: 'ts', 'ctrlkit baseline': 'base' }[side];
          const driver = `${prefix}-r${r}-${kind}-${size}.bench.example.com`;
          const waitsBefore = await watchCacheWaits(admin);
          const run = await runChild(side, plane, kind, size, driver);
          const calls = await callsSince(plane, offset);
          const waitsAfter = await watchCacheWaits(admin);
          offset = calls.nextOffset;
          const waits = {
            count: waitsAfter.count - waitsBefore.count,
            seconds: waitsAfter.seconds - waitsBefore.seconds,
          };
          measured[kind][size][side].push({ ...run, calls, waits });
          log(
            `round ${r + 1} ${kind} ${size} ${side}: ${run.ms.toFixed(0)} ms, ${calls.total} calls ${JSON.stringify(calls.byVerb)}, load ${loadavg()[0].toFixed(1)}`,
          );
        }
      }
    }
  }
} finally {
  admin.close();
  await plane.stop();
}

const digits = (v) => (v >= 100 ? 0 : v >= 10 ? 1 : 2);
const cell = ({ y, min, max }) =>
  `${y.toFixed(digits(y))} (${min.toFixed(digits(min))}–${max.toFixed(digits(max))})`;
const pick = {
  ms: (run) => run.ms,
  cpuMs: (run) => run.cpuMs,
  heapMiB: (run) => run.heapBytes / 2 ** 20,
  calls: (run) => run.calls.total,
  syncedMs: (run) => run.syncedMs,
  waits: (run) => run.waits.count,
  waitSeconds: (run) => run.waits.seconds,
};
const pointFor = (kind, size, side, field) =>
  pointOf(size, measured[kind][size][side].map(pick[field]));
const verbs = (run) =>
  Object.entries(run.calls.byVerb)
    .sort()
    .map(([verb, n]) => `${verb} ${n}`)
    .join(', ');

/** The table of one kind: every figure per size, ours and Go's. */
function tableOf(kind) {
  const ours = sides.filter((side) => side !== 'Go');
  const ratio = (side, size) => {
    const [runs, go] = [side, 'Go'].map((d) => measured[kind][size][d]);
    const spread = pointOf(
      size,
      runs.map((o, i) => o.ms / go[i].ms),
    );
    const of = pointFor(kind, size, side, 'ms').y / pointFor(kind, size, 'Go', 'ms').y;
    return `${of.toFixed(2)}x (rounds ${spread.min.toFixed(2)}–${spread.max.toFixed(2)})`;
  };
  const sameCalls = (side, size) => {
    const [runs, go] = [side, 'Go'].map((d) => measured[kind][size][d]);
    return String(runs.every((o, i) => verbs(o) === verbs(go[i])));
  };
  const rows = sizes.map((size) => [
    size,
    ...sides.map((side) => cell(pointFor(kind, size, side, 'ms'))),
    ...ours.map((side) => ratio(side, size)),
    ...sides.map((side) => verbs(measured[kind][size][side][0])),
    ...ours.map((side) => sameCalls(side, size)),
    ...sides.map((side) => cell(pointFor(kind, size, side, 'cpuMs'))),
    ...sides.map((side) => cell(pointFor(kind, size, side, 'heapMiB'))),
  ]);
  const what =
    kind === 'node-local'
      ? `Node-local drivers, one controller per node (all of a side in one process; Go: one clientset, ctrlkit: one client, each dialling another HTTP/2 connection when one carries the apiserver's 100 concurrent streams), one pool of ${DEVICES} devices per node`
      : `One network-attached driver, one pool of ${DEVICES} devices per size unit`;
  const before = baseline
    ? ' ctrlkit baseline: the build before the fix, in the same rounds (before/after).'
    : '';
  return {
    columns: [
      kind === 'node-local' ? 'nodes' : 'pools',
      ...sides.map((side) => `${side} ms to published`),
      ...ours.map((side) => `${side} / Go`),
      ...sides.map((side) => `${side} calls (round 1)`),
      ...ours.map((side) => `${side}: same calls as Go, every round`),
      ...sides.map((side) => `${side} CPU ms`),
      ...sides.map((side) => `${side} heap MiB`),
    ],
    rows,
    caption: `${what}; Go: k8s.io/dynamic-resource-allocation v0.35.0 in the same rounds. Median of ${rounds} rounds (lowest–highest); the ratio of the medians and the range of the ratios of rounds run side by side. Calls: ResourceSlice and Node requests in the apiserver's audit log. CPU: the process's user+system time from before the first controller starts to 2 s after publishing. Heap: live heap after GC (V8 heapUsed; Go HeapAlloc).${before} Aim: time <= 1.0x Go with the same calls.`,
  };
}

/**
 * How each side got its informers' initial state, both kinds: ms until every informer synced
 * (ours; the Go program does not report it) and the reads the apiserver held until its watch
 * cache had caught up with etcd, with the seconds they waited in sum.
 */
function initialStateTable() {
  const rows = kinds.flatMap((kind) =>
    sizes.map((size) => [
      kind,
      size,
      ...sides.map((side) =>
        side === 'Go' ? 'not reported' : cell(pointFor(kind, size, side, 'syncedMs')),
      ),
      ...sides.map((side) => cell(pointFor(kind, size, side, 'waits'))),
      ...sides.map((side) => cell(pointFor(kind, size, side, 'waitSeconds'))),
    ]),
  );
  return {
    columns: [
      'kind',
      'size',
      ...sides.map((side) => `${side} ms to synced`),
      ...sides.map((side) => `${side} reads that waited for the watch cache`),
      ...sides.map((side) => `${side} s those waited, in sum`),
    ],
    rows,
    caption: `The initial state. ms to synced: from starting the controllers until every informer has synced (every startController resolved). Reads that waited: the apiserver's apiserver_watch_cache_read_wait_seconds over the side's run: a streaming list from resourceVersion "" (client-go's first, and ours) is a consistent read, which the apiserver holds until its watch cache has caught up with etcd; a LIST at "0" is served from the cache as it is. Median of ${rounds} rounds (lowest–highest).${baseline ? ' ctrlkit baseline: the build before the fix (LIST, then WATCH).' : ''}`,
  };
}

/** One curve: a figure against the size, four series (two sides × two kinds). */
function curveOf(field, title, unit) {
  return {
    title,
    x: { label: 'nodes (node-local) or pools (network)', scale: 'log' },
    y: { label: unit },
    series: kinds.flatMap((kind) =>
      sides.map((side) => ({
        name: `${side === 'Go' ? 'Go v0.35.0' : side} ${kind}`,
        points: sizes.map((size) => pointFor(kind, size, side, field)),
      })),
    ),
  };
}

const tables = {
  'node-local': tableOf('node-local'),
  network: tableOf('network'),
  'initial-state': initialStateTable(),
};
for (const [name, t] of Object.entries(tables)) {
  console.log(`\n${name}`);
  console.table(t.rows.map((row) => Object.fromEntries(t.columns.map((c, i) => [c, row[i]]))));
}
writeResults(join(here, 'results/scale.json'), {
  command: `pnpm --filter @ctrlkit/dra-resourceslice bench -- ${process.argv
    .slice(2)
    .filter((a) => a !== '--')
    .join(' ')}`,
  started,
  tables,
  curves: {
    'time-curve': curveOf('ms', 'Time to published (lower is better)', 'ms'),
    'calls-curve': curveOf('calls', 'API calls to publish (lower is better)', 'requests'),
    'cpu-curve': curveOf('cpuMs', 'CPU time to publish (lower is better)', 'CPU ms'),
    'heap-curve': curveOf('heapMiB', 'Live heap after publishing (lower is better)', 'MiB'),
  },
});
