// The node side of DRA under load: 100 pods, each with its own claim for one GPU, on a virtual
// node (ctrlkit-virtual-kubelet, mock provider) whose GPUs ctrlkit-dra-example-kubeletplugin
// publishes and prepares; kube-scheduler allocates (envtest with kube-scheduler and
// kube-controller-manager). Per round: the time from each pod's create to it seen Running
// (polled: a poll lists 200 objects, so allocation and Running are not told apart by it; the
// claim's allocation happens in between, in scheduling), the virtual kubelet's NodePrepareResources latency (its
// `prepared` log lines), and the CPU time of the plugin and of the virtual kubelet per prepare
// (/proc). Several rounds, median and spread. No peer: no Go virtual kubelet prepares claims.
// Needs `pnpm build` first (runs the built bins).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { COMPONENTS, freePort, startControlPlane } from '@ctrlkit/envtest';
import { startMeasuring, writeResults } from '@ctrlkit/figures';
import { createClient } from '@ctrlkit/runtime/client';
import { loadYaml } from '@kubernetes/client-node';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const PODS = 100;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const NODE = 'vk-bench';
const NAMESPACE = 'default';
const vkBin = join(
  dirname(createRequire(import.meta.url).resolve('@ctrlkit/virtual-kubelet/package.json')),
  'dist/cli.js',
);
const pluginBin = join(here, '../dist/kubeletplugin-main.js');

/** Starts `bin` with `args`; its JSON log lines are kept. */
function run(bin, args) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  let rest = '';
  child.stdout.on('data', (chunk) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  });
  // A bin that fails at start says why.
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  return { child, lines, stop };
}

/** User + system CPU time of `pid`, in ms (Linux /proc). */
async function cpuMs(pid) {
  const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return ((Number(stat[11]) + Number(stat[12])) * 1000) / 100;
}

async function until(what, check, timeoutMs = 120_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** One round: 100 claims and pods; returns create→Running and prepare times, CPU per prepare. */
async function round(client, vk, plugin, r) {
  const cpu0 = [await cpuMs(plugin.child.pid), await cpuMs(vk.child.pid)];
  const logStart = vk.lines.length;
  const names = Array.from({ length: PODS }, (_, i) => `r${r}-p${i}`);
  const createdAt = new Map();
  const batchStart = performance.now();
  for (const name of names) {
    await client.create(
      'resource.k8s.io/v1/resourceclaims',
      {
        metadata: { name },
        spec: {
          devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] },
        },
      },
      { namespace: NAMESPACE },
    );
    await client.create(
      'pods',
      {
        metadata: { name },
        spec: {
          tolerations: [{ key: 'virtual-kubelet.io/provider', operator: 'Exists' }],
          terminationGracePeriodSeconds: 0,
          resourceClaims: [{ name: 'gpu', resourceClaimName: name }],
          containers: [{ name: 'main', image: 'cuda', resources: { claims: [{ name: 'gpu' }] } }],
        },
      },
      { namespace: NAMESPACE },
    );
    createdAt.set(name, performance.now());
  }
  const allocatedAt = new Map();
  let progress = '';
  const runningAt = new Map();
  await until(
    'every pod Running',
    async () => {
      const now = performance.now();
      const claims = await client.list('resource.k8s.io/v1/resourceclaims', {
        namespace: NAMESPACE,
      });
      for (const c of claims.items)
        if (c.status?.allocation && !allocatedAt.has(c.metadata.name))
          allocatedAt.set(c.metadata.name, now);
      const pods = await client.list('pods', { namespace: NAMESPACE });
      for (const p of pods.items)
        if (p.status?.phase === 'Running' && !runningAt.has(p.metadata.name))
          runningAt.set(p.metadata.name, now);
      const phases = {};
      for (const p of pods.items)
        phases[p.status?.phase ?? '?'] = (phases[p.status?.phase ?? '?'] ?? 0) + 1;
      progress = `${allocatedAt.size} allocated, pods ${JSON.stringify(phases)}`;
      return names.every((n) => runningAt.has(n));
    },
    600_000,
  ).catch((error) => {
    throw new Error(`${error.message} (${progress})`);
  });
  const cpu1 = [await cpuMs(plugin.child.pid), await cpuMs(vk.child.pid)];
  const prepareMs = vk.lines
    .slice(logStart)
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return undefined;
      }
    })
    .filter((entry) => entry?.msg === 'prepared')
    .map((entry) => entry.prepareMs);
  for (const name of names) await client.delete('pods', name, { namespace: NAMESPACE });
  await until(
    'every pod gone',
    async () => (await client.list('pods', { namespace: NAMESPACE })).items.length === 0,
  );
  for (const name of names)
    await client.delete('resource.k8s.io/v1/resourceclaims', name, { namespace: NAMESPACE });
  await until(
    'every claim gone',
    async () =>
      (await client.list('resource.k8s.io/v1/resourceclaims', { namespace: NAMESPACE })).items
        .length === 0,
  );
  const batchMs = Math.max(...runningAt.values()) - batchStart;
  return {
    toRunning: names.map((n) => runningAt.get(n) - createdAt.get(n)),
    batchMs,
    prepareMs,
    pluginCpuPerPrepare: (cpu1[0] - cpu0[0]) / prepareMs.length,
    vkCpuPerPrepare: (cpu1[1] - cpu0[1]) / prepareMs.length,
  };
}

const dir = await mkdtemp(join(tmpdir(), 'node-prepare-bench-'));
const plane = await startControlPlane({ components: COMPONENTS });
const client = createClient(plane.kubeConfig);
let vk;
let plugin;
try {
  await client.create(
    'resource.k8s.io/v1/deviceclasses',
    loadYaml(await readFile(join(here, '../deploy/deviceclass.yaml'), 'utf8')),
  );
  // Room for the pods (the mock's default capacity is 20 pods).
  const capacity = join(dir, 'provider.json');
  await writeFile(
    capacity,
    JSON.stringify({ [NODE]: { cpu: '200', memory: '400Gi', pods: '250' } }),
  );
  vk = run(vkBin, [
    ...['--kubeconfig', plane.kubeconfigPath, '--nodename', NODE, '--log-level', 'info'],
    ...['--provider-config', capacity],
    ...['--plugins-registry-dir', join(dir, 'registry'), '--cdi-spec-dirs', join(dir, 'cdi')],
    ...['--metrics-addr', '0', '--healthz-addr', '0', '--listen-port', String(await freePort())],
  ]);
  await until('the node', () =>
    client.get('nodes', NODE).then(
      () => true,
      () => false,
    ),
  );
  plugin = run(pluginBin, [
    ...['--kubeconfig', plane.kubeconfigPath, '--node-name', NODE, '--num-devices', String(PODS)],
    ...[
      '--cdi-root',
      join(dir, 'cdi'),
      '--kubelet-registrar-directory-path',
      join(dir, 'registry'),
    ],
    ...['--kubelet-plugins-directory-path', join(dir, 'plugins')],
    ...['--metrics-bind-address', '0', '--health-probe-bind-address', '0'],
  ]);
  await until('the default ServiceAccount', () =>
    client.get('serviceaccounts', 'default', { namespace: NAMESPACE }).then(
      () => true,
      () => false,
    ),
  );
  await until('the plugin registered', () =>
    vk.lines.some((l) => l.includes('DRA plugin registered')),
  );
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(client, vk, plugin, r));
  const spread = (pick, digits = 1) => {
    const values = rounds.map(pick);
    return `${quantile(values, 0.5).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  };
  const rows = [
    ['pod created → Running, median ms', spread((x) => quantile(x.toRunning, 0.5), 0)],
    ['pod created → Running, p95 ms', spread((x) => quantile(x.toRunning, 0.95), 0)],
    [`all ${PODS} pods Running, ms`, spread((x) => x.batchMs, 0)],
    ['NodePrepareResources, median ms', spread((x) => quantile(x.prepareMs, 0.5))],
    ['NodePrepareResources, p95 ms', spread((x) => quantile(x.prepareMs, 0.95))],
    ['plugin CPU per prepare, ms', spread((x) => x.pluginCpuPerPrepare, 2)],
    ['virtual kubelet CPU per prepare, ms', spread((x) => x.vkCpuPerPrepare, 2)],
  ];
  const caption = `${PODS} pods with one GPU claim each, all at once, on a virtual node (mock provider) with ctrlkit-dra-example-kubeletplugin; kube-scheduler allocates; median of ${ROUNDS} rounds (min–max). Pod times from its create call to seen Running (polled: scheduling and allocation included; allocation alone cannot be timed apart by polling); prepare latency from the virtual kubelet's log; CPU from /proc over the round (the virtual kubelet's includes its pod sync). No peer: no Go virtual kubelet prepares DRA claims.`;
  console.log(caption);
  console.table(Object.fromEntries(rows));
  writeResults(join(here, 'results/node-prepare.json'), {
    command: 'pnpm --filter @ctrlkit/dra-example-driver bench',
    started,
    tables: { prepare: { columns: ['figure', 'value'], rows, caption } },
  });
} finally {
  await plugin?.stop();
  await vk?.stop();
  client.close();
  await plane.stop();
  await rm(dir, { recursive: true, force: true });
}
