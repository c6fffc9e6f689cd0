// The webhook benchmark: admission requests through a local kube-apiserver (@ctrlkit/envtest)
// to ctrlkit's WebhookServer and to controller-runtime v0.25.2's webhook.Server
// (tooling/go-bench/webhook), side by side in one run. Each server runs in a process of its
// own, serves one validating and one mutating webhook for ConfigMaps with the same handler
// logic, and is installed by envtest the same way (installWebhooks); an object selector
// (label bench-server) sends each server only its own phase's ConfigMaps.
//
// Run: pnpm --filter @ctrlkit/runtime bench:webhook (also part of `pnpm bench`)
//   (set-up: pnpm setup:go bench-webhook; build: pnpm --filter @ctrlkit/runtime build)
// Knobs (environment): N (creates per phase, 2000), ROUNDS (5), CONCURRENCY (creates in
// flight, 8), WARMUP (creates per server before the rounds, 500).
//
// 1. Both servers are started and reached through the apiserver; one ConfigMap each checks
//    that the mutation shows on the created object and that `data.deny` is refused with the
//    handler's message.
// 2. WARMUP creates per server, then ROUNDS rounds; in each, one phase per server (the order
//    alternates between rounds): N creates of a small ConfigMap, CONCURRENCY in flight, each
//    checked (201 and mutated). Per phase: the server process's CPU time (/proc) ÷ the
//    admission requests it answered (its controller_runtime_webhook_requests_total, two per
//    create); the p99 of the creates' latency seen by the client; the p99 of the server's
//    own latency histogram (controller_runtime_webhook_latency_seconds, both webhooks); the
//    creates/s. The ConfigMaps are deleted after each phase (no webhook is called on delete).
// 3. The table shows medians with their range over the rounds and the ratio ctrlkit ÷
//    controller-runtime of each round; it is written to bench/results/webhook.json.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMeasuring, writeResults } from '@ctrlkit/figures';
import { call, callJson, connect, pool } from './kube.mjs';
import { histogramQuantile, startServer } from './webhook-servers.mjs';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.env.N ?? 2000);
const rounds = Number(process.env.ROUNDS ?? 5);
const concurrency = Number(process.env.CONCURRENCY ?? 8);
const warmup = Number(process.env.WARMUP ?? 500);
const namespace = 'ctrlkit-bench-webhook';
const base = `/api/v1/namespaces/${namespace}/configmaps`;
const SERVERS = ['ctrlkit', 'go'];
const TITLES = { ctrlkit: 'ctrlkit', go: 'controller-runtime' };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const format = (v, digits) =>
  v === undefined ? '-' : v.toLocaleString('en-US', { maximumFractionDigits: digits });
/** `median (min–max)`. */
const spread = (values, digits) =>
  `${format(median(values), digits)} (${format(Math.min(...values), digits)}–${format(Math.max(...values), digits)})`;

/** A small ConfigMap for `server`. */
const configMap = (server, name, data = { key: 'value' }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { 'bench-server': server } },
  data,
});

/** Checks that `server` mutates and denies as both servers should; throws otherwise. */
async function checkServer(conn, server) {
  const created = await callJson(conn, 'POST', base, configMap(server, `check-${server}`));
  if (created.metadata.labels.defaulted !== 'yes' || created.data.mode !== 'default') {
    throw new Error(`${server}: the created ConfigMap is not mutated: ${JSON.stringify(created)}`);
  }
  const denied = await call(conn, 'POST', base, configMap(server, 'denied', { deny: 'x' }));
  const message = denied.body.toString('utf8');
  if (denied.status !== 403 || !message.includes('configmap denied: data.deny is not allowed')) {
    throw new Error(`${server}: data.deny was not denied with the message: ${message}`);
  }
}

/** `count` creates for `server`, `concurrency` in flight; resolves their latencies in ms. */
async function creates(conn, server, prefix, count) {
  const latencies = [];
  await pool(count, concurrency, async (i) => {
    const at = performance.now();
    const { status, body } = await call(conn, 'POST', base, configMap(server, `${prefix}-${i}`));
    latencies.push(performance.now() - at);
    if (status !== 201) throw new Error(`create ${prefix}-${i}: HTTP ${status}: ${body}`);
  });
  await callJson(conn, 'DELETE', `${base}?labelSelector=bench-server%3D${server}`);
  return latencies;
}

/** One measured phase of `server`: CPU per admission request, p99s, creates/s. */
async function phase(conn, server, round) {
  const [cpuBefore, before] = [server.cpuMs(), await server.metrics()];
  const at = performance.now();
  const latencies = await creates(conn, server.name, `r${round}`, n);
  const seconds = (performance.now() - at) / 1000;
  const [cpuAfter, after] = [server.cpuMs(), await server.metrics()];
  const requests = after.requests - before.requests;
  if (requests !== 2 * n)
    throw new Error(`${server.name}: ${requests} admissions for ${n} creates`);
  return {
    cpuUsPerRequest: ((cpuAfter - cpuBefore) * 1000) / requests,
    clientP99Ms: quantile(latencies, 0.99),
    serverP99Ms: histogramQuantile(before, after, 0.99),
    createsPerSecond: n / seconds,
  };
}

/** The table: medians (range) per server, the per-round ratio, the aims. */
function table(runs) {
  const values = (server, field) => runs[server].map((r) => r[field]);
  const ratios = (field) => runs.ctrlkit.map((r, i) => r[field] / runs.go[i][field]);
  const row = (what, unit, field, digits, aim) => {
    const r = ratios(field);
    const verdict = aim === undefined ? '' : median(r) <= aim ? 'met' : 'missed';
    return [
      what,
      unit,
      spread(values('ctrlkit', field), digits),
      spread(values('go', field), digits),
      spread(r, 2),
      aim === undefined ? '' : `≤ ${aim} (${verdict})`,
    ];
  };
  return {
    columns: ['workload', 'unit', TITLES.ctrlkit, TITLES.go, 'ratio per round', 'aim'],
    rows: [
      row('server CPU per admission request', 'µs', 'cpuUsPerRequest', 0, 1.2),
      row('p99 latency of a create, client side', 'ms', 'clientP99Ms', 1, 1),
      row('p99 latency, server histogram', 'ms', 'serverP99Ms', 2, 1),
      row('creates through the apiserver', '/s', 'createsPerSecond', 0),
    ],
    caption:
      `${rounds} rounds of ${n} ConfigMap creates, ${concurrency} in flight, each admitted by ` +
      'one mutating and one validating webhook of the server; median (min–max) over the rounds; ' +
      'the ratio is ctrlkit ÷ controller-runtime of each round. The server histogram has ' +
      "controller-runtime's decade buckets, so its p99 is interpolated within one decade.",
  };
}

async function main() {
  const envtest = await import('@ctrlkit/envtest');
  const plane = await envtest.startControlPlane();
  const conn = await connect(plane.kubeConfig, concurrency);
  const servers = [];
  try {
    await callJson(conn, 'POST', '/api/v1/namespaces', { metadata: { name: namespace } });
    for (const name of SERVERS) servers.push(await startServer(envtest, plane.kubeConfig, name));
    for (const server of servers) await checkServer(conn, server.name);
    for (const server of servers) await creates(conn, server.name, 'warmup', warmup);
    const runs = { ctrlkit: [], go: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        const result = await phase(conn, server, round);
        runs[server.name].push(result);
        console.error(`[bench] round ${round + 1} ${server.name}: ${JSON.stringify(result)}`);
      }
    }
    const go = spawnSync('go', ['version']).stdout?.toString().trim();
    const webhook = table(runs);
    const { gitVersion } = await callJson(conn, 'GET', '/version');
    console.log(`kube-apiserver ${gitVersion} (envtest), node ${process.version}, ${go}`);
    console.log(webhook.columns.join(' | '));
    for (const r of webhook.rows) console.log(r.join(' | '));
    const load = loadavg().map((l) => l.toFixed(2));
    console.log(`load average at the end ${load.join(', ')} on ${cpus().length} CPUs`);
    writeResults(join(here, 'results/webhook.json'), {
      command: command(),
      started,
      tables: { webhook },
    });
  } finally {
    for (const server of servers) await server.stop();
    conn.agent.destroy();
    await plane.stop();
  }
}

/** The command line of this run: the knobs set in the environment, then the script. */
function command() {
  const set = ['N', 'ROUNDS', 'CONCURRENCY', 'WARMUP'].filter((k) => process.env[k] !== undefined);
  return [
    ...set.map((k) => `${k}=${process.env[k]}`),
    'pnpm --filter @ctrlkit/runtime bench:webhook',
  ].join(' ');
}

await main();
