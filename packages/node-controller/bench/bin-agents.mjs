// The two programs bench/bin.mjs and bench/bin-scale.mjs measure, as processes: the shipped
// ctrlkit-virtual-kubelet bin (apps/virtual-kubelet/dist/cli.js, with the node flags of its image,
// bench/heap-probe.mjs preloaded) and Go virtual-kubelet's node package agent
// (tooling/go-bench/virtual-kubelet, its line protocol: "ready", then "reset" and "stats").
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@ctrlkit/envtest';
import { agentLines } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '../../../apps/virtual-kubelet/dist/cli.js');
/** Clock ticks per second of /proc/<pid>/stat's CPU times. */
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** KB of a /proc/<pid>/status field (VmHWM: peak RSS). */
const statusKB = (pid, field) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`))[1]);

/** User + system CPU time of process `pid` so far, in ms (/proc/<pid>/stat fields 14 and 15). */
function cpuMsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

/** The sum of `rest_client_requests_total` the bin serves at `metricsAddr`: its API requests so far. */
async function binRequests(metricsAddr) {
  const text = await (await fetch(`http://${metricsAddr}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(/^rest_client_requests_total\{[^}]*\} (\d+)$/gm))
    sum += Number(m[1]);
  return sum;
}

/**
 * Starts ctrlkit-virtual-kubelet with `workers` pod sync workers; `counters()` gives its CPU ms
 * and API requests so far, `heapSamples()` the heap (MB) sampled since its last call (the lowest
 * and highest sample of each second, read from the probe's file: no request to the bin),
 * `quiet()` slows the probe down, `stop()` ends it (SIGTERM) and gives its peak heap and RSS.
 */
async function startBin(kubeconfig, nodeName, { workers }) {
  const dir = mkdtempSync(join(tmpdir(), 'vk-bin-bench-'));
  const probeFile = join(dir, 'heap.json');
  const secondsFile = join(dir, 'seconds.jsonl');
  const metricsAddr = `127.0.0.1:${await freePort()}`;
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=2',
      ...(process.env.BIN_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      '--import',
      join(here, 'heap-probe.mjs'),
      bin,
      `--kubeconfig=${kubeconfig}`,
      `--nodename=${nodeName}`,
      '--provider=mock',
      `--metrics-addr=${metricsAddr}`,
      '--healthz-addr=0',
      '--internal-ip=127.0.0.1',
      `--listen-port=${await freePort()}`,
      `--pod-sync-workers=${workers}`,
      // no client-side limit, as the Go side's QPS 10000: the figures measure the controllers
      '--kube-api-qps=10000',
      '--kube-api-burst=10000',
      '--log-level=warn',
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, HEAP_PROBE_FILE: probeFile, HEAP_PROBE_SECONDS: secondsFile },
    },
  );
  let exitCode;
  const exited = new Promise((resolve) => child.once('exit', resolve)).then((code) => {
    exitCode = code;
    return code;
  });
  let linesRead = 0;
  return {
    /** Throws when the bin has exited (it never should before `stop()`). */
    checkAlive() {
      if (exitCode !== undefined) throw new Error(`ctrlkit-virtual-kubelet exited ${exitCode}`);
    },
    async counters() {
      return { cpuMs: cpuMsOf(child.pid), requests: await binRequests(metricsAddr) };
    },
    /** Makes the heap probe sample once a second (its 20 ms sampling costs CPU the bin does not). */
    quiet() {
      child.kill('SIGUSR2');
    },
    async heapSamples() {
      if (!existsSync(secondsFile)) return [];
      const lines = readFileSync(secondsFile, 'utf8').split('\n').filter(Boolean);
      const fresh = lines.slice(linesRead).map((line) => JSON.parse(line));
      linesRead = lines.length;
      return fresh.flatMap(({ min, max }) => (max > 0 ? [min / 2 ** 20, max / 2 ** 20] : []));
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

/**
 * Starts the Go agent with upstream's default queue rate limiters and `workers` pod sync
 * workers; `counters()` gives its CPU ms and API requests since start, and its peak RSS;
 * `heapSamples()` its heap now (HeapAlloc, MB); `stop()` ends it and gives its peak RSS.
 */
async function startGo(goBinary, kubeconfig, nodeName, { workers }) {
  const child = spawn(
    goBinary,
    [
      '-kubeconfig',
      kubeconfig,
      '-nodename',
      nodeName,
      '-workers',
      String(workers),
      '-limiters',
      'default',
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const next = agentLines(child, 'go agent');
  await next('ready');
  let asked = Promise.resolve();
  /** One request and its answer at a time (the sampling loop and the rounds both ask). */
  const ask = (command, kind) => {
    const answer = asked.then(() => {
      child.stdin.write(`${command}\n`);
      return next(kind);
    });
    asked = answer.catch(() => {});
    return answer;
  };
  await ask('reset', 'reset');
  return {
    checkAlive() {},
    /** Nothing to quiet: the Go agent is sampled by request, once a second. */
    quiet() {},
    async counters() {
      const stats = await ask('stats', 'stats');
      return { cpuMs: stats.cpuMs, requests: stats.requests, peakRssMB: stats.peakRssMB };
    },
    async heapSamples() {
      return [(await ask('stats', 'stats')).heapMB];
    },
    async stop() {
      const { peakRssMB } = await this.counters();
      child.stdin.end();
      await new Promise((resolve) => child.on('exit', resolve));
      return { peakRssMB, peakHeapMB: undefined };
    },
  };
}

/**
 * Creates the namespace `nodeName`, starts one side (`go` or the bin) with `workers` pod sync
 * workers on it, and resolves with the agent once its Node is registered.
 */
export async function startOnNode(client, plane, side, goBinary, nodeName, { workers }) {
  await client.create('namespaces', { metadata: { name: nodeName } });
  const agent =
    side === 'go'
      ? await startGo(goBinary, plane.kubeconfigPath, nodeName, { workers })
      : await startBin(plane.kubeconfigPath, nodeName, { workers });
  for (;;) {
    agent.checkAlive();
    if (await client.get('nodes', nodeName).catch(() => undefined)) return agent;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
