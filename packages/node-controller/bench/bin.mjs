// pnpm --filter @ctrlkit/node-controller bench:bin [-- --n 1000 --workers 10]
//
// The shipped program, measured as it ships: ctrlkit-virtual-kubelet (the built bin,
// apps/virtual-kubelet/dist/cli.js, with the node flags of its image) runs as a process with the
// mock provider on a local control plane; --n pods (default 1000) are created on its node, run
// and are deleted. Reported: pods/s from creation to Running, the bin's peak V8 heap (sampled
// inside it by bench/heap-probe.mjs) and its peak RSS (VmHWM), beside Go virtual-kubelet's node
// package agent (tooling/go-bench/virtual-kubelet) doing the same on the same control plane.
// Writes bench/bin-results.json (commit, date, load, command and the figures), which the
// package README's table is made from.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, noopLogger, startControlPlane } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import { buildGo } from './go-agent.mjs';
import { agentLines, podsRound } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--'));
const { values } = parseArgs({
  args,
  options: { n: { type: 'string', default: '1000' }, workers: { type: 'string', default: '10' } },
});
const n = Number(values.n);
const workers = Number(values.workers);
const bin = join(here, '../../../apps/virtual-kubelet/dist/cli.js');
const notes = [];

/** KB of a /proc/<pid>/status field (VmHWM: peak RSS). */
const statusKB = (pid, field) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`))[1]);

/** Starts ctrlkit-virtual-kubelet; `stop()` ends it (SIGTERM) and gives its peak heap and RSS. */
async function startBin(kubeconfig, nodeName) {
  const probeFile = join(mkdtempSync(join(tmpdir(), 'vk-bin-bench-')), 'heap.json');
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=2',
      '--import',
      join(here, 'heap-probe.mjs'),
      bin,
      `--kubeconfig=${kubeconfig}`,
      `--nodename=${nodeName}`,
      '--provider=mock',
      '--metrics-addr=0',
      '--healthz-addr=0',
      '--internal-ip=127.0.0.1',
      `--listen-port=${await freePort()}`,
      `--pod-sync-workers=${workers}`,
      // no client-side limit, as the Go side's QPS 10000: the figures measure the controllers
      '--kube-api-qps=10000',
      '--kube-api-burst=10000',
      '--log-level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, HEAP_PROBE_FILE: probeFile } },
  );
  let exitCode;
  const exited = new Promise((resolve) => child.once('exit', resolve)).then((code) => {
    exitCode = code;
    return code;
  });
  return {
    /** Throws when the bin has exited (it never should before `stop()`). */
    checkAlive() {
      if (exitCode !== undefined) throw new Error(`ctrlkit-virtual-kubelet exited ${exitCode}`);
    },
    async stop() {
      const peakRssMB = statusKB(child.pid, 'VmHWM') / 1024;
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`ctrlkit-virtual-kubelet exited ${code}`);
      const heap = JSON.parse(readFileSync(probeFile, 'utf8'));
      return { peakRssMB, peakHeapMB: heap.peakHeapBytes / 2 ** 20 };
    },
  };
}

/** Starts the Go agent (its line protocol: "ready", then "stats" on request, EOF stops it). */
async function startGo(goBinary, kubeconfig, nodeName) {
  const child = spawn(
    goBinary,
    ['-kubeconfig', kubeconfig, '-nodename', nodeName, '-workers', String(workers)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const next = agentLines(child, 'go agent');
  await next('ready');
  return {
    checkAlive() {},
    async stop() {
      child.stdin.write('stats\n');
      const stats = await next('stats');
      child.stdin.end();
      await new Promise((resolve) => child.on('exit', resolve));
      return { peakRssMB: stats.peakRssMB, peakHeapMB: undefined };
    },
  };
}

/** One side: start it, wait for its node, run the pods through it, stop it. */
async function runOne(plane, which, goBinary) {
  const client = createClient(plane.kubeConfig, { qps: Number.POSITIVE_INFINITY });
  const nodeName = `bench-bin-${which}`;
  await client.create('namespaces', { metadata: { name: nodeName } });
  console.error(`${which}: starting`);
  const agent =
    which === 'go'
      ? await startGo(goBinary, plane.kubeconfigPath, nodeName)
      : await startBin(plane.kubeconfigPath, nodeName);
  for (;;) {
    agent.checkAlive();
    if (await client.get('nodes', nodeName).catch(() => undefined)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.error(`${which}: node registered, ${n} pods`);
  const { podsPerSecond, seconds } = await podsRound(client, { namespace: nodeName, nodeName, n });
  const memory = await agent.stop();
  await client.delete('nodes', nodeName).catch(() => {});
  await client.delete('namespaces', nodeName).catch(() => {});
  client.close();
  return { impl: which, podsPerSecond, seconds, ...memory };
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
  results.push(await runOne(plane, 'ctrlkit-virtual-kubelet', goBinary));
  if (goBinary) results.push(await runOne(plane, 'go', goBinary));
} finally {
  await plane.stop();
}

const repo = join(here, '../../..');
const round1 = (x) => (x === undefined ? null : Math.round(x * 10) / 10);
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
      columns: ['program', 'pods/s to Running', 'peak heap MB', 'peak RSS MB'],
      rows: results.map((r) => [
        r.impl,
        round1(r.podsPerSecond),
        round1(r.peakHeapMB),
        round1(r.peakRssMB),
      ]),
      caption:
        `${n} pods created, Running and deleted on one node with the mock provider, ${workers} pod sync workers, ` +
        'no client-side QPS limit; heap sampled inside the bin every 20 ms, RSS is VmHWM.' +
        (notes.length ? ` ${notes.join(' ')}` : ''),
    },
  },
};
writeFileSync(join(here, 'bin-results.json'), `${JSON.stringify(report, null, 2)}\n`);

const f = (x, d = 1) => (x === undefined ? '-' : x.toFixed(d));
console.log(`\n${n} pods, creation to Running, one node, mock provider, ${workers} workers\n`);
console.log('| impl | pods/s | peak heap MB | peak RSS MB |');
console.log('|---|---|---|---|');
for (const r of results) {
  console.log(`| ${r.impl} | ${f(r.podsPerSecond)} | ${f(r.peakHeapMB)} | ${f(r.peakRssMB)} |`);
}
for (const note of notes) console.log(`note: ${note}`);
