// @ctrlkit/client side by side with @kubernetes/client-node, on one local apiserver this
// script starts (@ctrlkit/envtest), in one run: ratios ctrlkit ÷ client-node of each round.
//
// Run: pnpm --filter @ctrlkit/client bench
//   (build first: pnpm turbo run build --filter=@ctrlkit/client... --filter=@ctrlkit/envtest...)
// Knobs (environment): N (ConfigMaps listed and streamed, 10000), ROUNDS (5), REQUESTS (GETs
// and PUTs timed per run, 500).
//
// 1. Seeds N ConfigMaps of ~1.4 KB of JSON each in the namespace `ctrlkit-bench-client`
//    (one of them, `bench-rw`, is the object of the GETs and PUTs), and a namespace holding
//    one ConfigMap for the idle watches.
// 2. ROUNDS rounds; in each, each client in a fresh child process (bench/child.mjs, with
//    --expose-gc), one after the other (the order alternates between rounds), measures:
//    import heap and time, CPU per GET and per PUT, heap held by 10 idle watches, one LIST of
//    the N decoded, CPU per watch event (a plain watch from resourceVersion 0: the N from the
//    apiserver's watch cache) and per object of the streaming list (sendInitialEvents).
//    client-go's shared informer (tooling/go-bench/informer, when `pnpm setup:go` built it)
//    syncs the same N, by LIST and by the streaming list, beside them.
// 3. The tables: medians over the rounds with their range, the ratio of each round and its
//    median against the aims, written with the run's commit, date, load and command to
//    bench/results/client.json (the README shows them: pnpm figures:update).
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, loadKubeConfig } from '@ctrlkit/client';
import { startMeasuring, writeResults } from '@ctrlkit/figures';
import { goProgram } from '@ctrlkit/go-programs';
import { reportTables } from './report.mjs';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.env.N ?? 10_000);
const rounds = Number(process.env.ROUNDS ?? 5);
const requests = Number(process.env.REQUESTS ?? 500);
const namespace = 'ctrlkit-bench-client';
const idleNamespace = 'ctrlkit-bench-client-idle';
const SIDES = ['client-node', 'ctrlkit'];

/** One line on the machine: cores and load average (1, 5, 15 min). */
function machineLoad(when) {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  return `${when}: load average ${load} on ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'})`;
}

/** Runs `file args`, resolves its stdout's last JSON line; rejects on a non-zero exit. */
function runChild(file, args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (chunk) => {
      out += chunk;
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code !== 0 || !line) reject(new Error(`${file} ${args.join(' ')} exited ${code}`));
      else resolve(JSON.parse(line));
    });
  });
}

/** ~1.4 KB of data, as a small application's ConfigMap. */
function configMap(name) {
  const data = {};
  for (let k = 0; k < 12; k++) data[`key-${k}`] = `${name}-${k}-`.padEnd(100, 'x');
  return { metadata: { name, labels: { app: 'bench', shard: name.slice(-1) } }, data };
}

/** Creates the namespaces and what is missing of the N ConfigMaps; returns how many there are. */
async function seed(client) {
  for (const name of [namespace, idleNamespace]) {
    await client.create('namespaces', { metadata: { name } }).catch((error) => {
      if (error?.statusCode !== 409) throw error;
    });
  }
  await client
    .create('configmaps', { metadata: { name: 'marker' } }, { namespace: idleNamespace })
    .catch((error) => {
      if (error?.statusCode !== 409) throw error;
    });
  const names = ['bench-rw', ...Array.from({ length: n - 1 }, (_, i) => `cm-${i}`)];
  const present = new Set(
    (await client.list('configmaps', { namespace })).items.map((c) => c.metadata.name),
  );
  const missing = names.filter((name) => !present.has(name));
  for (let i = 0; i < missing.length; i += 64) {
    await Promise.all(
      missing
        .slice(i, i + 64)
        .map((name) => client.create('configmaps', configMap(name), { namespace })),
    );
  }
  return (await client.list('configmaps', { namespace })).items.length;
}

/** client-go's informer sync of the namespace, by LIST and by the streaming list. */
async function clientGo(goBinary, plane, objects) {
  const base = ['-mode', 'sync', '-kubeconfig', plane.kubeconfigPath, '-namespace', namespace];
  const expect = ['-expect', String(objects)];
  return {
    list: await runChild(goBinary, [...base, ...expect, '-watch-list', 'false']),
    stream: await runChild(goBinary, [...base, ...expect, '-watch-list', 'true']),
  };
}

async function main() {
  const envtest = await import('@ctrlkit/envtest');
  const startLoad = machineLoad('at the start');
  const notes = [];
  let goBinary;
  try {
    goBinary = goProgram('bench-informer');
  } catch (error) {
    notes.push(`client-go skipped: ${error.message}.`);
  }
  const plane = await envtest.startControlPlane({});
  const seeder = createClient(loadKubeConfig({ kubeconfig: plane.kubeconfigPath }), {
    qps: Number.POSITIVE_INFINITY,
  });
  try {
    const objects = await seed(seeder);
    const version = await seeder.requestJson('GET', '/version');
    const runs = { 'client-node': [], ctrlkit: [], 'client-go': [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? SIDES : [...SIDES].reverse();
      for (const which of order) {
        console.error(`[bench] round ${round + 1}/${rounds}: ${which}`);
        const args = [plane.kubeconfigPath, namespace, idleNamespace, objects, requests];
        const script = join(here, 'child.mjs');
        runs[which].push(await runChild(process.execPath, ['--expose-gc', script, which, ...args]));
      }
      if (goBinary) runs['client-go'].push(await clientGo(goBinary, plane, objects));
    }
    const tables = reportTables({
      runs,
      notes,
      header: [
        '@ctrlkit/client vs @kubernetes/client-node 2.0.1, each in its own process',
        `kube-apiserver ${version.gitVersion} on 127.0.0.1 (envtest), node ${process.version}, ${objects.toLocaleString('en-US')} ConfigMaps of ~1.4 KB, ${requests} GETs and PUTs per run, ${rounds} rounds`,
        startLoad,
        machineLoad('at the end'),
      ],
    });
    writeResults(join(here, 'results/client.json'), { command: command(), started, tables });
  } finally {
    seeder.close();
    await plane.stop();
  }
}

/** The command line of this run: the knobs set in the environment, then the script. */
function command() {
  const set = ['N', 'ROUNDS', 'REQUESTS'].filter((k) => process.env[k] !== undefined);
  return [...set.map((k) => `${k}=${process.env[k]}`), 'pnpm --filter @ctrlkit/client bench'].join(
    ' ',
  );
}

await main();
