// pnpm --filter @ctrlkit/node-controller bench
//
// Pods per second from creation to Running on one virtual node with a mock provider, for
// --n pods (default 1000) with --workers 1,4,16, --rounds times (default 1; ctrlkit runs first in
// odd rounds, Go in even ones), @ctrlkit/node-controller (bench/agent.mjs)
// side by side with Go virtual-kubelet's node package v1.13.0 (tooling/go-bench/virtual-kubelet,
// built with the machine's Go into ~/.cache/ctrlkit/go-bench, never into the repository), on
// one local control plane. Both sides use per-item exponential rate limiters (5 ms..1000 s,
// no overall bucket) and no client-side QPS limit, so the figures measure the controllers.
// Also reported: API requests made by each agent per pod (creation to Running to deletion),
// the agent's CPU time per pod (user + system) and peak heap / RSS.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { noopLogger, startControlPlane } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import { buildGo } from './go-agent.mjs';
import { agentLines, podsRound } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  // `pnpm --filter … bench -- --n 1000` passes the `--` on: it ends pnpm's options, not ours.
  args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--')),
  options: {
    n: { type: 'string', default: '1000' },
    workers: { type: 'string', default: '1,4,16' },
    rounds: { type: 'string', default: '1' },
  },
});
const n = Number(values.n);
const workerCounts = values.workers.split(',').map(Number);
const rounds = Number(values.rounds);
const notes = [];
// The agent runs with the node flags the virtual-kubelet app's image runs with
// (apps/virtual-kubelet/Dockerfile: a 2 MB young generation); AGENT_NODE_FLAGS='' for node's defaults.
const agentNodeFlags = (process.env.AGENT_NODE_FLAGS ?? '--max-semi-space-size=2')
  .split(' ')
  .filter(Boolean);

/** Starts an agent process and speaks its line protocol. */
async function startAgent(which, goBinary, kubeconfig, nodeName, workers) {
  const [cmd, args] =
    which === 'go'
      ? [goBinary, ['-kubeconfig', kubeconfig, '-nodename', nodeName, '-workers', String(workers)]]
      : [
          process.execPath,
          [
            // gc() for the live heap after the run (not called while it is measured)
            '--expose-gc',
            ...agentNodeFlags,
            join(here, 'agent.mjs'),
            '--kubeconfig',
            kubeconfig,
            '--nodename',
            nodeName,
            '--workers',
            String(workers),
          ],
        ];
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const next = agentLines(child, `${which} agent`);
  await next('ready');
  return {
    async ask(command, kind) {
      child.stdin.write(`${command}\n`);
      return next(kind);
    },
    async stop() {
      child.stdin.end();
      await new Promise((resolve) => child.on('exit', resolve));
    },
  };
}

async function runOne(plane, which, goBinary, workers, round) {
  const client = createClient(plane.kubeConfig, { qps: Number.POSITIVE_INFINITY });
  const nodeName = `bench-${which}-w${workers}-r${round}`;
  const namespace = nodeName;
  await client.create('namespaces', { metadata: { name: namespace } });
  console.error(`${which} w=${workers}: starting agent`);
  const agent = await startAgent(which, goBinary, plane.kubeconfigPath, nodeName, workers);
  console.error(`${which} w=${workers}: agent ready`);
  await agent.ask('reset', 'reset');

  console.error(`${which} w=${workers}: creating ${n} pods`);
  const {
    podsPerSecond,
    seconds,
    running: runningStats,
  } = await podsRound(client, {
    namespace,
    nodeName,
    n,
    whenRunning: () => agent.ask('stats', 'stats'),
  });
  const stats = await agent.ask('stats', 'stats');
  await agent.stop();
  await client.delete('nodes', nodeName).catch(() => {});
  await client.delete('namespaces', namespace).catch(() => {});
  return {
    which,
    workers,
    round,
    podsPerSecond,
    seconds,
    requestsPerPodToRunning: runningStats.requests / n,
    requestsPerPod: stats.requests / n,
    cpuMsPerPodToRunning: runningStats.cpuMs / n,
    cpuMsPerPod: stats.cpuMs / n,
    byVerb: stats.byVerb,
    peakHeapMB: stats.peakHeapMB ?? stats.heapMB,
    liveHeapMB: runningStats.liveHeapMB,
    peakRssMB: stats.peakRssMB,
  };
}

const goBinary = buildGo(notes);
console.error('control plane starting');
const plane = await startControlPlane({ logger: noopLogger });
const results = [];
try {
  for (let round = 1; round <= rounds; round++) {
    for (const workers of workerCounts) {
      // Odd rounds run ctrlkit first, even rounds Go first: neither always gets the fresher apiserver.
      const sides = goBinary ? ['ctrlkit', 'go'] : ['ctrlkit'];
      for (const which of round % 2 === 1 ? sides : sides.reverse()) {
        const result = await runOne(plane, which, goBinary, workers, round);
        results.push(result);
        console.error(
          `${which} w=${workers} round ${round}: ${result.podsPerSecond.toFixed(1)} pods/s`,
        );
      }
    }
  }
} finally {
  await plane.stop();
}

const f = (x, d = 1) => (x === undefined ? '-' : x.toFixed(d));
console.log(`\n${n} pods, creation to Running, one node, mock provider\n`);
console.log(
  '| workers | round | impl | pods/s | ratio ctrlkit/Go | requests/pod to Running | requests/pod incl. delete | CPU ms/pod to Running | CPU ms/pod incl. delete | peak heap MB | live heap MB (1,000 Running) | peak RSS MB |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const go = results.find(
    (x) => x.which === 'go' && x.workers === r.workers && x.round === r.round,
  );
  const ratio = r.which === 'ctrlkit' && go ? f(r.podsPerSecond / go.podsPerSecond, 2) : '';
  console.log(
    `| ${r.workers} | ${r.round} | ${r.which} | ${f(r.podsPerSecond)} | ${ratio} | ${f(r.requestsPerPodToRunning, 2)} | ${f(r.requestsPerPod, 2)} | ${f(r.cpuMsPerPodToRunning, 2)} | ${f(r.cpuMsPerPod, 2)} | ${f(r.peakHeapMB)} | ${f(r.liveHeapMB)} | ${f(r.peakRssMB)} |`,
  );
}
if (rounds > 1 && goBinary) {
  console.log('\nratio ctrlkit/Go pods/s per round, and its median:\n');
  for (const workers of workerCounts) {
    const ratios = [];
    for (let round = 1; round <= rounds; round++) {
      const pick = (which) =>
        results.find((x) => x.which === which && x.workers === workers && x.round === round);
      ratios.push(pick('ctrlkit').podsPerSecond / pick('go').podsPerSecond);
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    const middle = sorted.length / 2;
    const median =
      sorted.length % 2 === 1
        ? sorted[Math.floor(middle)]
        : (sorted[middle - 1] + sorted[middle]) / 2;
    console.log(
      `workers ${workers}: ${ratios.map((x) => f(x, 2)).join(', ')}; median ${f(median, 2)}`,
    );
  }
}
for (const r of results)
  console.log(
    `${r.which} w=${r.workers} round ${r.round} requests by verb: ${JSON.stringify(r.byVerb)}`,
  );
for (const note of notes) console.log(`note: ${note}`);
