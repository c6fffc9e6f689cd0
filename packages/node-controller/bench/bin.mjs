// pnpm --filter @ctrlkit/node-controller bench:bin [-- --n 1000 --workers 10 --rounds 3]
// (`-- --scale`: the scale curves of bench/bin-scale.mjs instead)
//
// The shipped program, measured as it ships: ctrlkit-virtual-kubelet (the built bin,
// apps/virtual-kubelet/dist/cli.js, with the node flags of its image) runs as a process with the
// mock provider on a local control plane; --n pods (default 1000) are created on its node, run
// and are deleted. Beside it, on the same control plane, Go virtual-kubelet's node package agent
// (tooling/go-bench/virtual-kubelet) does the same with the settings the bin has: the pod
// controller's default queue rate limiters (client-go's DefaultTypedControllerRateLimiter, as
// upstream's nodeutil.NewNode gives the virtual-kubelet binary: per-item backoff and a bucket of
// 10 qps, burst 100 over every new pod), --workers pod sync workers, no client-side QPS limit.
// --rounds repeats both, ctrlkit first in odd rounds and Go first in even ones.
//
// Reported per program (median over the rounds, and the range): pods/s from creation to
// Running, the ratio ctrlkit/Go within each round, CPU ms (user + system) and API requests per
// pod over the whole round (creation, Running, deletion), the peak V8 heap of the bin (sampled
// inside it by bench/heap-probe.mjs) and the peak RSS (VmHWM). Writes bench/bin-results.json
// (commit, date, load, command and the table), which the package README's table is made from.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { noopLogger, startControlPlane } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import { startOnNode } from './bin-agents.mjs';
import { buildGo } from './go-agent.mjs';
import { podsRound } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--'));
if (args.includes('--scale')) {
  // The scale curves are a mode of their own (bench/bin-scale.mjs): it runs to its end on import.
  await import('./bin-scale.mjs');
  process.exit(0);
}
const { values } = parseArgs({
  args,
  options: {
    n: { type: 'string', default: '1000' },
    workers: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
  },
});
const n = Number(values.n);
const workers = Number(values.workers);
const rounds = Number(values.rounds);
const notes = [];

/** One side in one round: start it, wait for its node, run the pods through it, stop it. */
async function runOne(plane, which, goBinary, round) {
  const client = createClient(plane.kubeConfig, { qps: Number.POSITIVE_INFINITY });
  const nodeName = `bench-bin-${which === 'go' ? 'go' : 'ctrlkit'}-r${round}`;
  console.error(`${which} round ${round}: starting`);
  const agent = await startOnNode(client, plane, which, goBinary, nodeName, { workers });
  console.error(`${which} round ${round}: node registered, ${n} pods`);
  const before = await agent.counters();
  const { podsPerSecond, seconds } = await podsRound(client, { namespace: nodeName, nodeName, n });
  const after = await agent.counters();
  const memory = await agent.stop();
  await client.delete('nodes', nodeName).catch(() => {});
  await client.delete('namespaces', nodeName).catch(() => {});
  client.close();
  console.error(`${which} round ${round}: ${podsPerSecond.toFixed(1)} pods/s`);
  return {
    impl: which,
    round,
    podsPerSecond,
    seconds,
    cpuMsPerPod: (after.cpuMs - before.cpuMs) / n,
    requestsPerPod: (after.requests - before.requests) / n,
    ...memory,
  };
}

const started = {
  date: new Date().toISOString(),
  load: loadavg().map((x) => Math.round(x * 100) / 100),
};
const goBinary = buildGo(notes);
console.error('control plane starting');
const plane = await startControlPlane({ logger: noopLogger });
const results = [];
try {
  for (let round = 1; round <= rounds; round++) {
    const sides = goBinary ? ['ctrlkit-virtual-kubelet', 'go'] : ['ctrlkit-virtual-kubelet'];
    // Odd rounds run ctrlkit first, even rounds Go first: neither always gets the fresher apiserver.
    for (const which of round % 2 === 1 ? sides : sides.reverse()) {
      results.push(await runOne(plane, which, goBinary, round));
    }
  }
} finally {
  await plane.stop();
}

const median = (xs) => {
  const s = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  if (s.length === 0) return undefined;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fixed = (x, d) => (x === undefined ? '-' : x.toFixed(d));
/** "median (min–max)" of `xs` with `d` decimals; the median alone for one round. */
const spread = (xs, d = 1) => {
  const s = xs.filter((x) => x !== undefined);
  if (s.length === 0) return null;
  const m = fixed(median(s), d);
  return s.length === 1 ? m : `${m} (${fixed(Math.min(...s), d)}–${fixed(Math.max(...s), d)})`;
};
/** ctrlkit/Go pods/s within each round. */
const ratios = [];
for (let round = 1; round <= rounds; round++) {
  const [ours, go] = ['ctrlkit-virtual-kubelet', 'go'].map((impl) =>
    results.find((r) => r.impl === impl && r.round === round),
  );
  if (ours && go) ratios.push(ours.podsPerSecond / go.podsPerSecond);
}
const rows = [...new Set(results.map((r) => r.impl))].map((impl) => {
  const mine = results.filter((r) => r.impl === impl);
  const pick = (key) => mine.map((r) => r[key]);
  return [
    impl,
    spread(pick('podsPerSecond')),
    impl === 'go' ? null : spread(ratios, 2),
    spread(pick('cpuMsPerPod'), 2),
    spread(pick('requestsPerPod'), 2),
    spread(pick('peakHeapMB')),
    spread(pick('peakRssMB')),
  ];
});

const repo = join(here, '../../..');
// The results file has @ctrlkit/figures' shape (tooling/figures): command, commit, date, load at
// the start and end, machine, and named tables a README block renders.
const report = {
  command: `pnpm --filter @ctrlkit/node-controller bench:bin${args.length ? ` -- ${args.join(' ')}` : ''}`,
  commit: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim(),
  date: started.date,
  load: { start: started.load, end: loadavg().map((x) => Math.round(x * 100) / 100) },
  machine: {
    cpus: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  },
  tables: {
    bin: {
      columns: [
        'program',
        'pods/s to Running',
        'pods/s ratio ctrlkit/Go',
        'CPU ms/pod',
        'API requests/pod',
        'peak heap MB',
        'peak RSS MB',
      ],
      rows,
      caption:
        `${n} pods created, Running and deleted on one node with the mock provider, ${workers} pod sync workers, ` +
        `${rounds} round${rounds === 1 ? '' : 's'} (median, and the range); both with upstream's default queue rate ` +
        'limiters (per-item backoff and a bucket of 10 qps, burst 100) and no client-side QPS limit. CPU and ' +
        'requests per pod over creation, Running and deletion; heap sampled inside the bin every 20 ms, RSS is VmHWM.' +
        (notes.length ? ` ${notes.join(' ')}` : ''),
    },
  },
};
writeFileSync(join(here, 'bin-results.json'), `${JSON.stringify(report, null, 2)}\n`);

const { columns } = report.tables.bin;
console.log(`\n| ${columns.join(' | ')} |\n|${columns.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${row.map((c) => c ?? '-').join(' | ')} |`);
for (const note of notes) console.log(`note: ${note}`);
