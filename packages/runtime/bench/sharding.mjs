// The sharding benchmark: one sharded ConfigMap controller as 1, 2 and 4 replicas (child
// processes, bench/sharding-child.mjs, each a Manager with a Shard and a Sharder candidate)
// on one local apiserver this script starts (@ctrlkit/envtest), over N ConfigMaps.
//
// Run: pnpm --filter @ctrlkit/runtime bench:sharding   (after pnpm build)
// Knobs (environment): N (ConfigMaps, 3000), REPLICAS (1,2,4), RECONCILE_MS (the simulated
// provider call of each reconcile, 5), WORKERS (maxConcurrentReconciles per replica, 4).
//
// For each replica count, with a ring of its own (so labels start empty):
// 1. start the replicas; "assigned" = time until every object carries a shard label and has
//    been reconciled once by its shard;
// 2. "reconciles/s": every replica enqueues every object of its cache at once; N ÷ the time
//    until the slowest replica has reconciled its share;
// 3. "heap/replica": gc(), then heapUsed of each replica (mean; max in the notes);
// 4. "rebalance": one replica stops gracefully (SIGTERM); time until it has exited and every
//    object it held carries another live shard's label and has been reconciled there.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callJson, connect } from './kube.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.env.N ?? 3_000);
const counts = (process.env.REPLICAS ?? '1,2,4').split(',').map(Number);
const namespace = 'ctrlkit-bench-sharding';

async function seed(conn) {
  await callJson(conn, 'POST', '/api/v1/namespaces', { metadata: { name: namespace } }).catch(
    () => {},
  );
  const names = Array.from({ length: n }, (_, i) => `cm-${String(i).padStart(5, '0')}`);
  for (let i = 0; i < names.length; i += 64) {
    await Promise.all(
      names.slice(i, i + 64).map((name) =>
        callJson(conn, 'POST', `/api/v1/namespaces/${namespace}/configmaps`, {
          metadata: { name },
          data: { payload: 'x'.repeat(512) },
        }).catch(() => {}),
      ),
    );
  }
}

function startChild(kubeconfigPath, ring, name, seen) {
  const child = spawn(process.execPath, ['--expose-gc', join(here, 'sharding-child.mjs')], {
    env: {
      ...process.env,
      BENCH_KUBECONFIG: kubeconfigPath,
      BENCH_NAMESPACE: namespace,
      BENCH_RING: ring,
      BENCH_NAME: name,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const replica = { name, child, waiters: [], exited: new Promise((r) => child.on('exit', r)) };
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const text of lines) {
      if (text.trim() === '') continue;
      const line = JSON.parse(text);
      if (line.key !== undefined) seen.set(line.key, { shard: name, at: performance.now() });
      for (const waiter of replica.waiters.splice(0)) waiter(line) || replica.waiters.push(waiter);
    }
  });
  replica.next = (predicate) =>
    new Promise((resolve) =>
      replica.waiters.push((line) => {
        if (!predicate(line)) return false;
        resolve(line);
        return true;
      }),
    );
  replica.send = (line) => replica.child.stdin.write(`${line}\n`);
  return replica;
}

async function until(what, check, timeoutMs = 300_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function labels(conn, ring) {
  const list = await callJson(conn, 'GET', `/api/v1/namespaces/${namespace}/configmaps`);
  return new Map(
    list.items.map((cm) => [
      `${namespace}/${cm.metadata.name}`,
      cm.metadata.labels?.[`shard.ctrlkit.io/${ring}`],
    ]),
  );
}

async function runRing(conn, kubeconfigPath, replicas) {
  const ring = `bench-${replicas}-${Date.now().toString(36)}`;
  const seen = new Map();
  const started = performance.now();
  const children = Array.from({ length: replicas }, (_, i) =>
    startChild(kubeconfigPath, ring, `r${i + 1}`, seen),
  );
  await until('every object assigned and reconciled', async () => {
    if (seen.size < n) return false;
    const current = await labels(conn, ring);
    return [...current].every(
      ([key, shard]) => shard !== undefined && seen.get(key)?.shard === shard,
    );
  });
  const assignedS = (performance.now() - started) / 1000;
  // Reconciles per second: every replica reconciles its whole share at once.
  const resyncStart = performance.now();
  const answers = children.map((c) => c.next((line) => line.resynced !== undefined));
  for (const c of children) c.send('resync');
  const resynced = await Promise.all(answers);
  const resyncS = (performance.now() - resyncStart) / 1000;
  const total = resynced.reduce((sum, line) => sum + line.resynced, 0);
  const heaps = await Promise.all(
    children.map((c) => {
      const answer = c.next((line) => line.heap !== undefined);
      c.send('heap');
      return answer;
    }),
  );
  // Rebalance after a replica leaves (graceful stop).
  let rebalanceS;
  if (replicas > 1) {
    const leaving = children[replicas - 1];
    const before = await labels(conn, ring);
    const owned = [...before].filter(([, shard]) => shard === leaving.name).map(([key]) => key);
    const stopAt = performance.now();
    leaving.child.kill('SIGTERM');
    await leaving.exited;
    await until('its objects moved and reconciled', async () => {
      const current = await labels(conn, ring);
      return owned.every((key) => {
        const shard = current.get(key);
        return (
          shard !== undefined &&
          shard !== leaving.name &&
          seen.get(key)?.shard === shard &&
          seen.get(key).at > stopAt
        );
      });
    });
    rebalanceS = (performance.now() - stopAt) / 1000;
    rebalanceS = { seconds: rebalanceS, moved: owned.length };
  }
  for (const c of children) c.child.kill('SIGTERM');
  await Promise.all(children.map((c) => c.exited));
  return {
    replicas,
    assignedS,
    reconcilesPerS: total / resyncS,
    heapMiB: heaps.reduce((sum, h) => sum + h.heap, 0) / heaps.length / 2 ** 20,
    heapMaxMiB: Math.max(...heaps.map((h) => h.heap)) / 2 ** 20,
    cached: heaps.map((h) => h.cached),
    rebalance: rebalanceS,
  };
}

async function main() {
  const envtest = await import('@ctrlkit/envtest');
  const plane = await envtest.startControlPlane({
    apiServerFlags: { 'max-requests-inflight': '2000', 'max-mutating-requests-inflight': '1000' },
  });
  const { kubeconfigPath } = plane;
  const conn = await connect(plane.kubeConfig, 64);
  try {
    await seed(conn);
    const rows = [];
    for (const replicas of counts) {
      console.error(`[bench] ${replicas} replica(s) over ${n} ConfigMaps`);
      rows.push(await runRing(conn, kubeconfigPath, replicas));
    }
    const base = rows[0];
    console.log(
      `\nSharded ConfigMap controller, ${n} objects, reconcile = ${process.env.RECONCILE_MS ?? 5} ms wait, ${process.env.WORKERS ?? 4} workers per replica, on one machine\n`,
    );
    console.log(
      '| replicas | assigned (s) | reconciles/s | × 1 replica | heap/replica (MiB) | × 1 replica | objects cached per replica | rebalance after one leaves |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---|---|');
    for (const row of rows) {
      console.log(
        `| ${row.replicas} | ${row.assignedS.toFixed(1)} | ${row.reconcilesPerS.toFixed(0)} | ${(row.reconcilesPerS / base.reconcilesPerS).toFixed(2)} | ${row.heapMiB.toFixed(1)} | ${(row.heapMiB / base.heapMiB).toFixed(2)} | ${row.cached.join(', ')} | ${row.rebalance ? `${row.rebalance.seconds.toFixed(1)} s (${row.rebalance.moved} objects)` : '-'} |`,
      );
    }
  } finally {
    conn.agent.destroy();
    await plane.stop();
  }
}

await main();
