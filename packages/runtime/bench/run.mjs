// The informer benchmark: ctrlkit's informer, @kubernetes/client-node's makeInformer and
// client-go's shared informer (tooling/go-bench/informer, built with the machine's Go)
// side by side on one local apiserver this script starts (@ctrlkit/envtest), with the bare
// LIST of the same objects as the floor. One table, ratios ctrlkit ÷ each peer.
//
// Run: pnpm --filter @ctrlkit/runtime bench
//   (build first: pnpm --filter @ctrlkit/envtest build; pnpm --filter @ctrlkit/runtime build)
// Knobs (environment): N (ConfigMaps, 10000), REPEATS (sync runs per informer, 3),
// WRITE_SECONDS (update stream, 10), WRITERS (updates in flight, 32),
// CTRLKIT_INFORMER_OPTIONS (extra SharedInformerFactory options as JSON for the ctrlkit
// columns, e.g. '{"pageSize":0}'; see bench/ctrlkit-informer.mjs), VARIANTS (the ctrlkit
// variants measured beside the defaults, comma-separated, default all of
// CTRLKIT_VARIANTS: 'ctrlkit list', 'ctrlkit stream', 'ctrlkit no gzip',
// 'ctrlkit metadata'; '' for none).
//
// 1. Seeds N ConfigMaps of ~1.47 KB of compact JSON each (managedFields included) in the
//    namespace `ctrlkit-bench-informer`, 64 creates in flight; those already there are kept.
// 2. Time to synced and memory per cached object: each informer in a fresh child process
//    (bench/driver.mjs for Node, the Go binary for client-go), one after another,
//    round-robin, REPEATS times; the table shows medians. The ctrlkit variants (initial
//    list mode, compression off, metadata only) get a table of their own. Node: gc(), heapUsed delta after
//    sync ÷ N; Go: runtime.GC(), HeapAlloc delta ÷ N. Printed below the table: every run,
//    RSS deltas, and for Node the heap freed when the synced informer is stopped and
//    dropped ÷ N (the cache without the code compiled on the way).
// 3. Events/s: the three informers run CONCURRENTLY in their own processes, synced, while
//    one writer (this process) merge-patches the ConfigMaps round-robin, WRITERS requests in
//    flight, for WRITE_SECONDS: every informer sees the same stream. Each counts the update
//    events its handler receives, from the first to the last; events/s = count ÷ that span.
//    The floor column shows the writer's rate (an informer that keeps up matches it).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { CTRLKIT_VARIANTS } from './ctrlkit-informer.mjs';
import { call, callJson, connect, pool } from './kube.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.env.N ?? 10_000);
const repeats = Number(process.env.REPEATS ?? 3);
const writeSeconds = Number(process.env.WRITE_SECONDS ?? 10);
const writers = Number(process.env.WRITERS ?? 32);
const namespace = 'ctrlkit-bench-informer';
const fieldManager = 'ctrlkit-bench';
/** Compact JSON bytes of one ConfigMap as BENCHMARKS.md measured it (209 of managedFields). */
const targetBytes = 1474;
const names = Array.from({ length: n }, (_, i) => `cm-${String(i).padStart(5, '0')}`);
const notes = [];
const variants = (process.env.VARIANTS ?? Object.keys(CTRLKIT_VARIANTS).slice(1).join(','))
  .split(',')
  .map((v) => v.trim())
  .filter((v) => v !== '');
for (const v of variants) {
  if (!(v in CTRLKIT_VARIANTS)) throw new Error(`VARIANTS: unknown variant ${JSON.stringify(v)}`);
}
/** Average compact JSON bytes of one stored ConfigMap without managedFields (set by seed). */
let compactBytes;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Builds the Go side; undefined (with the reason noted) where Go is missing or fails. */
function buildClientGo() {
  const source = join(here, '../../../tooling/go-bench/informer');
  const binary = join(source, '../bin/informer');
  if (spawnSync('go', ['version']).status !== 0) {
    notes.push('client-go column skipped: no Go toolchain on PATH (install Go to compare).');
    return undefined;
  }
  mkdirSync(dirname(binary), { recursive: true });
  try {
    execFileSync('go', ['build', '-o', binary, '.'], { cwd: source, stdio: 'inherit' });
  } catch (error) {
    notes.push(`client-go column skipped: go build failed (${error.message.split('\n')[0]}).`);
    return undefined;
  }
  return binary;
}

/** The command line of one informer's process. */
function command(which, mode, plane, goBinary) {
  if (which === 'client-go') {
    return [
      goBinary,
      [
        '-mode',
        mode,
        '-kubeconfig',
        plane.kubeconfigPath,
        '-namespace',
        namespace,
        '-expect',
        `${n}`,
      ],
    ];
  }
  return [
    process.execPath,
    [
      '--expose-gc',
      join(here, 'driver.mjs'),
      which,
      mode,
      plane.kubeconfigPath,
      namespace,
      String(n),
    ],
  ];
}

/**
 * Spawns one informer's process; `lines` yields its JSON lines as they come, `send(text)`
 * writes a line to its stdin, `exited` resolves at exit (rejects on a failure).
 */
function child(which, mode, plane, goBinary, timeoutMs = 120_000) {
  const [file, args] = command(which, mode, plane, goBinary);
  const proc = spawn(file, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const queue = [];
  let wake;
  let buffer = '';
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i).trim();
      buffer = buffer.slice(i + 1);
      if (line) queue.push(JSON.parse(line));
    }
    wake?.();
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  const exited = new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      wake?.();
      if (code === 0) resolve();
      else reject(new Error(`${which} (${mode}) exited with ${signal ?? `code ${code}`}`));
    });
  });
  exited.catch(() => {});
  const next = async () => {
    while (queue.length === 0) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        await exited;
        throw new Error(`${which} (${mode}) exited without output`);
      }
      await new Promise((resolve) => {
        wake = resolve;
      });
    }
    return queue.shift();
  };
  return { next, send: (text) => proc.stdin.write(`${text}\n`), exited, kill: () => proc.kill() };
}

function configMap(name, payload) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace,
      labels: { 'app.kubernetes.io/name': 'informer-bench' },
    },
    data: { payload },
  };
}

/** Compact JSON of a stored object as a LIST item carries it (no kind/apiVersion). */
function itemBytes(object) {
  const { kind: _kind, apiVersion: _apiVersion, ...item } = object;
  return Buffer.byteLength(JSON.stringify(item));
}

/** Creates the namespace and whichever of the N ConfigMaps are missing. */
async function seed(conn) {
  const path = `/api/v1/namespaces/${namespace}/configmaps`;
  await callJson(
    conn,
    'POST',
    '/api/v1/namespaces',
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    [201, 409],
  );
  const existing = new Set(
    (await callJson(conn, 'GET', path)).items.map((item) => item.metadata.name),
  );
  const missing = names.filter((name) => !existing.has(name));
  if (missing.length > 0) {
    // A dry run tells the size of the stored object around the payload.
    const probe = await callJson(
      conn,
      'POST',
      `${path}?dryRun=All&fieldManager=${fieldManager}`,
      configMap(names[0], ''),
    );
    const resourceVersionBytes = '"resourceVersion":"123456",'.length;
    const payloadBytes = Math.max(0, targetBytes - itemBytes(probe) - resourceVersionBytes);
    const payload = 'x'.repeat(payloadBytes);
    const start = performance.now();
    await pool(missing.length, 64, (i) =>
      callJson(
        conn,
        'POST',
        `${path}?fieldManager=${fieldManager}`,
        configMap(missing[i], payload),
        [201, 409],
      ),
    );
    const seconds = (performance.now() - start) / 1000;
    console.error(
      `[bench] created ${missing.length} ConfigMaps in ${seconds.toFixed(1)} s (${Math.round(missing.length / seconds)}/s)`,
    );
  }
  const list = await callJson(conn, 'GET', path);
  if (list.items.length !== n) {
    throw new Error(`namespace ${namespace} holds ${list.items.length} ConfigMaps, expected ${n}`);
  }
  const sample = list.items[0];
  const managed = Buffer.byteLength(JSON.stringify(sample.metadata.managedFields ?? []));
  const average = list.items.reduce((sum, item) => sum + itemBytes(item), 0) / n;
  compactBytes =
    list.items.reduce((sum, item) => {
      const { managedFields: _managedFields, ...metadata } = item.metadata;
      return sum + itemBytes({ ...item, metadata });
    }, 0) / n;
  notes.push(
    `${n.toLocaleString('en-US')} ConfigMaps in ${namespace}: ${Math.round(average)} B of compact JSON each on average, ${managed} B of it managedFields; ${Math.round(compactBytes)} B without.`,
  );
}

/** Merge-patches the ConfigMaps round-robin, `writers` in flight, for `seconds`. */
async function write(conn, seconds) {
  const path = `/api/v1/namespaces/${namespace}/configmaps`;
  let seq = 0;
  let writes = 0;
  let failures = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const lane = async () => {
    while (performance.now() < end) {
      const i = seq++;
      const { status } = await call(
        conn,
        'PATCH',
        `${path}/${names[i % n]}?fieldManager=${fieldManager}`,
        { data: { seq: `${Date.now()}-${i}` } },
      );
      if (status === 200) writes++;
      else failures++;
    }
  };
  await Promise.all(Array.from({ length: writers }, lane));
  return { writes, failures, seconds: (performance.now() - start) / 1000 };
}

/** Time to synced and memory: each informer in a fresh process, one at a time, round-robin. */
async function syncRuns(plane, informers, goBinary) {
  const runs = Object.fromEntries(informers.map((which) => [which, []]));
  const skipped = {};
  // One bare LIST first, not counted: the apiserver settles after the seeding.
  const warmUp = child('bare', 'sync', plane, goBinary);
  await warmUp.next();
  await warmUp.exited;
  for (let round = 0; round < repeats; round++) {
    for (const which of informers) {
      if (skipped[which]) continue;
      const proc = child(which, 'sync', plane, goBinary);
      const line = await proc.next();
      await proc.exited;
      if (line.kind === 'skip') {
        skipped[which] = line.reason;
        notes.push(`ctrlkit column '-': ${line.reason}.`);
        continue;
      }
      runs[which].push(line);
      console.error(
        `[bench] ${which} run ${round + 1}: synced ${line.syncedMs.toFixed(0)} ms, heap ${Math.round(line.heapPerObject)} B/object`,
      );
    }
  }
  return { runs, skipped };
}

/** Events/s: the informers concurrently, synced, under one stream of updates. */
async function eventRuns(plane, informers, goBinary, conn) {
  let procs = informers.map((which) => ({
    which,
    proc: child(which, 'events', plane, goBinary, 300_000),
  }));
  try {
    for (const entry of procs) {
      const line = await entry.proc.next();
      if (line.kind === 'skip') {
        notes.push(`${entry.which}: not in the events row: ${line.reason}.`);
        entry.skip = true;
      } else if (line.kind !== 'ready') {
        throw new Error(`${entry.which}: expected ready, got ${JSON.stringify(line)}`);
      }
    }
    procs = procs.filter((entry) => !entry.skip);
    for (const { proc } of procs) proc.send('start');
    await sleep(200);
    const writer = await write(conn, writeSeconds);
    for (const { proc } of procs) proc.send(`stop ${writer.writes}`);
    const results = {};
    for (const { which, proc } of procs) {
      results[which] = await proc.next();
      await proc.exited;
    }
    return { writer, results };
  } finally {
    for (const { proc } of procs) proc.kill();
  }
}

const format = (value, digits = 0) =>
  value === undefined || Number.isNaN(value)
    ? '-'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits });
const ratio = (a, b) => (a === undefined || b === undefined ? '-' : (a / b).toFixed(2));

function printTable({ runs, skipped }, events, goBinary, version) {
  const sync = (which, field) =>
    runs[which]?.length ? median(runs[which].map((run) => run[field])) : undefined;
  const rate = (which) => {
    const r = events.results[which];
    return r && r.seconds > 0 ? r.events / r.seconds : undefined;
  };
  const cpu = (which) => {
    const r = events.results[which];
    return r?.events ? (r.cpuMs * 1000) / r.events : undefined;
  };
  const rows = [
    {
      workload: `time to synced, ${format(n)} ConfigMaps (median of ${repeats})`,
      unit: 'ms',
      get: (which) => sync(which, 'syncedMs'),
      floor: sync('bare', 'syncedMs'),
      digits: 0,
      aim: '≤ 1.0× client-go and ≤ 1.15× bare LIST',
    },
    {
      workload: 'heap per cached object (Go: HeapAlloc)',
      unit: 'B',
      get: (which) => sync(which, 'heapPerObject'),
      floor: sync('bare', 'heapPerObject'),
      digits: 0,
      aim: `≤ 1.1× the compact JSON without managedFields (${format(compactBytes)} B)`,
    },
    {
      workload: 'heap freed when the synced informer is dropped, per object',
      unit: 'B',
      get: (which) => (which === 'client-go' ? undefined : sync(which, 'freedPerObject')),
      floor: sync('bare', 'freedPerObject'),
      digits: 0,
      aim: 'the cache itself, no compiled code (Node); floor: LIST items w/o managedFields',
    },
    {
      workload: `watch events handled/s (3 informers at once, ${writeSeconds} s stream)`,
      unit: 'events/s',
      get: rate,
      floor: events.writer.writes / events.writer.seconds,
      digits: 0,
      aim: 'keep up with the writer (floor column)',
    },
    {
      workload: 'CPU per watch event (same stream)',
      unit: 'µs',
      get: cpu,
      floor: undefined,
      digits: 1,
      aim: '≤ 1.0× client-go',
    },
  ];
  const table = rows.map((row) => {
    const ours = row.get('ctrlkit');
    return {
      workload: row.workload,
      unit: row.unit,
      ctrlkit: format(ours, row.digits),
      'client-node': format(row.get('client-node'), row.digits),
      'client-go': format(row.get('client-go'), row.digits),
      'bare LIST / writer': format(row.floor, row.digits),
      'ck÷node': ratio(ours, row.get('client-node')),
      'ck÷go': ratio(ours, row.get('client-go')),
      'ck÷floor': ratio(ours, row.floor),
      aim: row.aim,
    };
  });
  console.log(
    `\n@ctrlkit/runtime informer vs @kubernetes/client-node 2.0.1 makeInformer vs client-go v0.37.2 shared informer`,
  );
  console.log(
    `kube-apiserver ${version} on 127.0.0.1 (envtest), node ${process.version}, ${format(n)} ConfigMaps`,
  );
  console.table(table);
  if (process.env.CTRLKIT_INFORMER_OPTIONS) {
    console.log(`ctrlkit informer options: ${process.env.CTRLKIT_INFORMER_OPTIONS}`);
  }

  // The ctrlkit variants: the same runs with other settings.
  const variantRows = ['ctrlkit', ...variants]
    .filter((which) => runs[which]?.length)
    .map((which) => ({
      variant: which,
      options: JSON.stringify(CTRLKIT_VARIANTS[which]),
      'synced ms': format(sync(which, 'syncedMs')),
      '÷ bare LIST': ratio(sync(which, 'syncedMs'), sync('bare', 'syncedMs')),
      '÷ client-go': ratio(sync(which, 'syncedMs'), sync('client-go', 'syncedMs')),
      'heap B/object': format(sync(which, 'heapPerObject')),
      'heap ÷ ctrlkit': ratio(sync(which, 'heapPerObject'), sync('ctrlkit', 'heapPerObject')),
    }));
  if (variantRows.length > 1) {
    console.log('\nctrlkit settings side by side (same runs, medians):');
    console.table(variantRows);
  }

  const synced = sync('ctrlkit', 'syncedMs');
  if (synced !== undefined) {
    const verdict = (value, aim) =>
      value === undefined || Number.isNaN(value)
        ? 'not measured'
        : value <= aim
          ? 'MET'
          : 'NOT met';
    const aims = [
      ['time to synced ÷ client-go', synced / sync('client-go', 'syncedMs'), 1.0],
      ['time to synced ÷ bare LIST', synced / sync('bare', 'syncedMs'), 1.15],
      ['CPU per watch event ÷ client-go', cpu('ctrlkit') / cpu('client-go'), 1.0],
      [
        'heap per cached object ÷ compact JSON w/o managedFields',
        sync('ctrlkit', 'heapPerObject') / compactBytes,
        1.1,
      ],
      [
        'metadata-only heap ÷ full informer heap',
        sync('ctrlkit metadata', 'heapPerObject') / sync('ctrlkit', 'heapPerObject'),
        0.25,
      ],
    ];
    console.log('\naims (ratio, aim, verdict):');
    for (const [name, value, aim] of aims) {
      console.log(
        `  ${name}: ${format(value, 2)} (aim ≤ ${aim.toFixed(2)}) ${verdict(value, aim)}`,
      );
    }
  }

  const all = (which, field, digits = 0) =>
    runs[which]?.length ? runs[which].map((r) => format(r[field], digits)).join(' / ') : '-';
  for (const which of ['bare', 'client-node', 'client-go', 'ctrlkit', ...variants]) {
    if (!runs[which]?.length) continue;
    notes.push(
      `${which}: synced ${all(which, 'syncedMs')} ms; heap ${all(which, 'heapPerObject')} B/object${which === 'client-go' ? '' : ` (freed when dropped${which === 'bare' ? ', managedFields stripped first' : ''}: ${all(which, 'freedPerObject')})`}; RSS +${all(which, 'rssPerObject')} B/object (RSS ${all(which, 'rssMB')} MB).`,
    );
  }
  if (runs.bare?.length) {
    notes.push(
      `bare LIST (node:https, one GET, JSON.parse, ${format(runs.bare[0].bytes / 1e6, 1)} MB): headers at ${all('bare', 'headersMs')} ms, body in at ${all('bare', 'receivedMs')} ms, parsed at ${all('bare', 'syncedMs')} ms (no overlap of transfer and parsing, which a streaming informer can have). Its parsed items hold ${all('bare', 'heapPerObject')} B/object of heap; without managedFields (metadata rebuilt) ${all('bare', 'strippedPerObject')} B/object: the Node heap floor for a cache with the default transform.`,
    );
  }
  if (runs['client-go']?.length) {
    notes.push(
      `client-go: HasSynced polled every 1 ms; a controller's cache.WaitForCacheSync (100 ms poll) returns at ${all('client-go', 'waitForCacheSyncMs')} ms. Defaults: JSON, WatchListClient (streaming list) as v0.37 ships it, no transform.`,
    );
  }
  if (runs['client-node']?.length) {
    notes.push(
      `client-node: synced = its last 'add' callback of the list; start() resolves (watch open) at ${all('client-node', 'startResolvedMs')} ms.`,
    );
  }
  const w = events.writer;
  notes.push(
    `events: one writer, ${writers} merge patches in flight: ${format(w.writes)} updates in ${w.seconds.toFixed(1)} s (${w.failures} failed); handled per informer: ${Object.entries(
      events.results,
    )
      .map(([which, r]) => `${which} ${format(r.events)} in ${r.seconds.toFixed(2)} s`)
      .join(', ')}.`,
  );
  if (!goBinary) notes.push('client-go: not run (see above).');
  if (skipped.ctrlkit) {
    notes.push(
      'ctrlkit: wire the informer in packages/runtime/bench/ctrlkit-informer.mjs (startCtrlkitInformer).',
    );
  }
  console.log(notes.map((note) => `- ${note}`).join('\n'));
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
  const goBinary = buildClientGo();
  const informers = [
    'bare',
    'client-node',
    ...(goBinary ? ['client-go'] : []),
    'ctrlkit',
    ...variants,
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
    await seed(conn);
    const sync = await syncRuns(plane, informers, goBinary);
    const live = informers.filter(
      (which) => which !== 'bare' && !variants.includes(which) && !sync.skipped[which],
    );
    console.error(`[bench] update stream for ${writeSeconds} s, informers: ${live.join(', ')}`);
    const events = await eventRuns(plane, live, goBinary, conn);
    printTable(sync, events, goBinary, gitVersion);
  } finally {
    conn.agent.destroy();
    await plane.stop();
  }
}

await main();
