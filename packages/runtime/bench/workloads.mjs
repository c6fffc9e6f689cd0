// The bench's workloads on the local apiserver: seeding the ConfigMaps, the sync rounds
// (each informer in a fresh process, one after another) and the update stream.
import { setTimeout as sleep } from 'node:timers/promises';
import { child } from './children.mjs';
import { call, callJson, pool } from './kube.mjs';

const fieldManager = 'ctrlkit-bench';
/** How long synced informers rest before an update stream is counted (see {@link eventRuns}). */
const SETTLE_MS = 3000;
/** Compact JSON bytes of one ConfigMap as BENCHMARKS.md measured it (209 of managedFields). */
const targetBytes = 1474;

function configMap(name, namespace, payload) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: { 'app.kubernetes.io/name': 'informer-bench' } },
    data: { payload },
  };
}

/** Compact JSON of a stored object as a LIST item carries it (no kind/apiVersion). */
function itemBytes(object) {
  const { kind: _kind, apiVersion: _apiVersion, ...item } = object;
  return Buffer.byteLength(JSON.stringify(item));
}

/**
 * Creates the namespace and whichever of the `names` ConfigMaps are missing; returns the
 * average compact JSON bytes of one without managedFields (and notes the sizes).
 */
export async function seed(conn, { namespace, names, notes }) {
  const path = `/api/v1/namespaces/${namespace}/configmaps`;
  const namespaceObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } };
  await callJson(conn, 'POST', '/api/v1/namespaces', namespaceObject, [201, 409]);
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
      configMap(names[0], namespace, ''),
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
        configMap(missing[i], namespace, payload),
        [201, 409],
      ),
    );
    const seconds = (performance.now() - start) / 1000;
    console.error(
      `[bench] created ${missing.length} ConfigMaps in ${seconds.toFixed(1)} s (${Math.round(missing.length / seconds)}/s)`,
    );
  }
  const list = await callJson(conn, 'GET', path);
  const n = names.length;
  if (list.items.length !== n) {
    throw new Error(`namespace ${namespace} holds ${list.items.length} ConfigMaps, expected ${n}`);
  }
  const managed = Buffer.byteLength(JSON.stringify(list.items[0].metadata.managedFields ?? []));
  const average = list.items.reduce((sum, item) => sum + itemBytes(item), 0) / n;
  const compactBytes =
    list.items.reduce((sum, item) => {
      const { managedFields: _managedFields, ...metadata } = item.metadata;
      return sum + itemBytes({ ...item, metadata });
    }, 0) / n;
  notes.push(
    `${n.toLocaleString('en-US')} ConfigMaps in ${namespace}: ${Math.round(average)} B of compact JSON each on average, ${managed} B of it managedFields; ${Math.round(compactBytes)} B without.`,
  );
  return compactBytes;
}

/** Merge-patches the ConfigMaps round-robin, `writers` in flight, for `seconds`. */
async function write(conn, { namespace, names }, seconds, writers) {
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
        `${path}/${names[i % names.length]}?fieldManager=${fieldManager}`,
        { data: { seq: `${Date.now()}-${i}` } },
      );
      if (status === 200) writes++;
      else failures++;
    }
  };
  await Promise.all(Array.from({ length: writers }, lane));
  return { writes, failures, seconds: (performance.now() - start) / 1000 };
}

/**
 * Time to synced and memory: `rounds` rounds, in each every informer in a fresh process,
 * one after another in the order given (so the runs of one round share the machine's
 * state). Each run's line gets `apiServerCpuMs`, the apiserver's CPU time during it.
 */
export async function syncRuns(setup, informers, rounds, apiServer) {
  const runs = Object.fromEntries(informers.map((which) => [which, []]));
  const skipped = {};
  // One bare LIST first, not counted: the apiserver settles after the seeding.
  const warmUp = child('bare', 'sync', setup);
  await warmUp.next();
  await warmUp.exited;
  for (let round = 0; round < rounds; round++) {
    for (const which of informers) {
      if (skipped[which]) continue;
      const cpuBefore = apiServer.read();
      const proc = child(which, 'sync', setup);
      const line = await proc.next();
      await proc.exited;
      if (line.kind === 'skip') {
        skipped[which] = line.reason;
        setup.notes.push(`${which} column '-': ${line.reason}.`);
        continue;
      }
      const cpuAfter = apiServer.read();
      line.apiServerCpuMs = cpuBefore === undefined ? undefined : cpuAfter - cpuBefore;
      line.round = round;
      runs[which].push(line);
      console.error(
        `[bench] round ${round + 1} ${which}: synced ${line.syncedMs.toFixed(0)} ms, CPU ${line.cpuMs?.toFixed(0)} ms, apiserver CPU ${line.apiServerCpuMs ?? '-'} ms, heap ${Math.round(line.heapPerObject)} B/object`,
      );
    }
  }
  return { runs, skipped };
}

/**
 * Events/s and CPU per event: the informers concurrently, synced and settled for
 * {@link SETTLE_MS}, under one stream of updates.
 */
export async function eventRuns(setup, informers, conn, { seconds, writers }) {
  let procs = informers.map((which) => ({
    which,
    proc: child(which, 'events', setup, 300_000),
  }));
  try {
    for (const entry of procs) {
      const line = await entry.proc.next();
      if (line.kind === 'skip') {
        setup.notes.push(`${entry.which}: not in the events row: ${line.reason}.`);
        entry.skip = true;
      } else if (line.kind !== 'ready') {
        throw new Error(`${entry.which}: expected ready, got ${JSON.stringify(line)}`);
      }
    }
    procs = procs.filter((entry) => !entry.skip);
    // The stream measures steady state: the collection that follows a large initial list (V8
    // finishes its incremental marking from tasks ~0.2 s after the list; Go's GC cycle likewise)
    // ends before the counting starts, not inside it (traced with DRIVER_NODE_FLAGS=--trace-gc).
    await sleep(SETTLE_MS);
    for (const { proc } of procs) proc.send('start');
    await sleep(200);
    const writer = await write(conn, setup, seconds, writers);
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
