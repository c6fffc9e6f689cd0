// `pnpm --filter @ctrlkit/dra-resourceslice bench`: time and API calls to publish 10 000
// devices (100 pools × 100 devices, one slice each, no owner) and then to apply a change
// touching 1% of the devices (every 100th device gets a new attribute value: one device in
// each pool), side by side with the Go controller (k8s.io/dynamic-resource-allocation
// v0.35.0, tooling/go-bench/dra-resourceslice, built once by the set-up,
// `pnpm setup:go`, into ~/.cache/ctrlkit/go-programs, never into the repository). Both run against one local control
// plane (@ctrlkit/envtest), one after the other, each with its own driver name, clients
// without rate limits. A step ends when the controller's stats reach the expected count;
// calls are counted for 2 s more. Needs `pnpm build` first (imports ../dist). The table is
// written, with the run's commit, date and load, to bench/results/dra-resourceslice.json.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { newKubeClient, startController } from '@ctrlkit/dra-resourceslice';
import { startControlPlane } from '@ctrlkit/envtest';
import { startMeasuring, writeResults } from '@ctrlkit/figures';
import { goProgram } from '@ctrlkit/go-programs';
import { createClient } from '@ctrlkit/runtime/client';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const POOLS = 100;
const DEVICES = 100;
const CHANGE_EVERY = 100;
const QUIET_MS = 2_000;

function resources(changed) {
  const pools = {};
  let n = 0;
  for (let p = 0; p < POOLS; p++) {
    const devices = [];
    for (let d = 0; d < DEVICES; d++) {
      const value = changed && n % CHANGE_EVERY === 0 ? 'v2' : 'v1';
      n++;
      devices.push({
        name: `dev-${d}`,
        attributes: { index: { int: d }, firmware: { string: value } },
      });
    }
    pools[`pool-${String(p).padStart(3, '0')}`] = { slices: [{ devices }] };
  }
  return { pools };
}

function changedPools() {
  const pools = new Set();
  for (let n = 0; n < POOLS * DEVICES; n += CHANGE_EVERY) pools.add(Math.floor(n / DEVICES));
  return pools.size;
}

/** The Go side, built by the set-up (`pnpm setup:go`); undefined, with the reason, where it is not. */
function goBinary(notes) {
  try {
    return goProgram('bench-dra-resourceslice');
  } catch (error) {
    notes.push(`Go column skipped: ${error.message}.`);
    return undefined;
  }
}

async function runGo(binary, kubeconfigPath) {
  const child = spawn(
    binary,
    [
      `-kubeconfig=${kubeconfigPath}`,
      '-driver=go.bench.example.com',
      `-pools=${POOLS}`,
      `-devices=${DEVICES}`,
      `-change-every=${CHANGE_EVERY}`,
      `-quiet=${QUIET_MS}ms`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`Go bench exited with ${code}`);
  return Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .map((r) => [r.step, r]),
  );
}

async function runOurs(kubeConfig) {
  // Without a rate limit, as the Go side (QPS -1): the kubeconfig's default client has
  // client-go's 20/s, which alone made 100 creates take 3.5 s.
  const inner = newKubeClient(createClient(kubeConfig, { qps: Number.POSITIVE_INFINITY }));
  let writes = 0;
  const client = {
    client: inner.client,
    createResourceSlice: (s) => {
      writes++;
      return inner.createResourceSlice(s);
    },
    updateResourceSlice: (s) => {
      writes++;
      return inner.updateResourceSlice(s);
    },
    deleteResourceSlice: (n, p) => {
      writes++;
      return inner.deleteResourceSlice(n, p);
    },
    readNode: (n) => inner.readNode(n),
  };
  const results = {};
  let controller;
  const step = async (name, run, done) => {
    const before = controller?.getStats() ?? { numCreates: 0, numUpdates: 0, numDeletes: 0 };
    const w0 = writes;
    const start = performance.now();
    await run();
    while (!done(controller.getStats())) await sleep(1);
    const ms = performance.now() - start;
    await sleep(QUIET_MS);
    const after = controller.getStats();
    results[name] = {
      ms,
      creates: after.numCreates - before.numCreates,
      updates: after.numUpdates - before.numUpdates,
      deletes: after.numDeletes - before.numDeletes,
      writes: writes - w0,
    };
  };
  await step(
    'publish',
    async () => {
      controller = await startController({
        driverName: 'ts.bench.example.com',
        kubeClient: client,
        resources: resources(false),
        errorHandler: (error, message) => console.error(`${message}: ${error.message}`),
      });
    },
    (s) => s.numCreates >= POOLS,
  );
  const base = controller.getStats().numUpdates;
  const expected = changedPools();
  await step(
    'change',
    () => controller.update(resources(true)),
    (s) => s.numUpdates - base >= expected,
  );
  await controller.stop();
  return results;
}

/** The apiserver's gitVersion, as the table's title names it. */
async function serverVersion(kubeConfig) {
  const { VersionApi } = await import('@kubernetes/client-node');
  return (await kubeConfig.makeApiClient(VersionApi).getCode()).gitVersion;
}

const notes = [];
const binary = goBinary(notes);
const plane = await startControlPlane();
try {
  const ours = await runOurs(plane.kubeConfig);
  const go = binary ? await runGo(binary, plane.kubeconfigPath) : undefined;
  const rows = [];
  for (const [step, label] of [
    ['publish', `publish ${POOLS * DEVICES} devices (${POOLS} pools × ${DEVICES})`],
    ['change', `change 1% of devices (${changedPools()} pools touched)`],
  ]) {
    const o = ours[step];
    const g = go?.[step];
    rows.push({
      step: label,
      'ctrlkit ms': o.ms.toFixed(0),
      'Go ms': g ? g.ms.toFixed(0) : '-',
      'ck÷go': g ? (o.ms / g.ms).toFixed(2) : '-',
      'ctrlkit C/U/D (writes)': `${o.creates}/${o.updates}/${o.deletes} (${o.writes})`,
      'Go C/U/D (writes)': g ? `${g.creates}/${g.updates}/${g.deletes} (${g.writes})` : '-',
      'same calls': g
        ? String(
            o.creates === g.creates &&
              o.updates === g.updates &&
              o.deletes === g.deletes &&
              o.writes === g.writes,
          )
        : '-',
    });
  }
  const title = `@ctrlkit/dra-resourceslice vs k8s.io/dynamic-resource-allocation v0.35.0 resourceslice, kube-apiserver ${await serverVersion(plane.kubeConfig)} (envtest)`;
  const aim = 'aim: the same API calls as Go for every change set, time ≤ 1.2× Go.';
  console.log(`\n${title}`);
  console.table(rows);
  console.log(aim);
  for (const note of notes) console.log(note);
  writeResults(join(here, 'results/dra-resourceslice.json'), {
    command: 'pnpm --filter @ctrlkit/dra-resourceslice bench',
    started,
    tables: {
      steps: {
        columns: Object.keys(rows[0]),
        rows: rows.map((row) => Object.values(row)),
        caption: [`${title}; one run.`, aim, ...notes].join(' '),
      },
    },
  });
} finally {
  await plane.stop();
}
