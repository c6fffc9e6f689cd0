// The bench's workloads on the local apiserver: seeding the ConfigMaps, the sync rounds
// (each informer in a fresh process, one after another) and the update stream.
import { setTimeout as sleep } from 'node:timers/promises';
import { child } from './children.mjs';
import { call, callJson, connect, pool } from './kube.mjs';
import { itemBytes, objectFor, patchFor } from './objects.mjs';

const fieldManager = 'ctrlkit-bench';
/** How long synced informers rest before an update stream is counted (see {@link eventRuns}). */
const SETTLE_MS = 3000;

/** The collection URL of `setup`'s objects. */
const pathOf = ({ namespace, resource = 'configmaps' }) =>
  `/api/v1/namespaces/${namespace}/${resource}`;

/**
 * Creates the namespace (and its default ServiceAccount, which pods need) and whichever of
 * the `names` objects of `resource` (default ConfigMaps) are missing; returns the average
 * compact JSON bytes of one without managedFields (and notes the sizes).
 */
export async function seed(conn, { namespace, names, notes, resource = 'configmaps' }) {
  const path = pathOf({ namespace, resource });
  const namespaceObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } };
  await callJson(conn, 'POST', '/api/v1/namespaces', namespaceObject, [201, 409]);
  const account = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } };
  await callJson(
    conn,
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts`,
    account,
    [201, 409],
  );
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
      objectFor(resource, names[0], namespace, undefined),
    );
    const start = performance.now();
    await pool(missing.length, 64, (i) =>
      callJson(
        conn,
        'POST',
        `${path}?fieldManager=${fieldManager}`,
        objectFor(resource, missing[i], namespace, probe),
        [201, 409],
      ),
    );
    const seconds = (performance.now() - start) / 1000;
    console.error(
      `[bench] created ${missing.length} ${resource} in ${seconds.toFixed(1)} s (${Math.round(missing.length / seconds)}/s)`,
    );
  }
  // Read in pages: 100k pods in one JSON answer pass the longest string V8 makes (512 MiB).
  const n = names.length;
  let count = 0;
  let bytes = 0;
  let compact = 0;
  let managed;
  let next = '';
  do {
    const page = await callJson(
      conn,
      'GET',
      `${path}?limit=5000${next ? `&continue=${encodeURIComponent(next)}` : ''}`,
    );
    for (const item of page.items) {
      managed ??= Buffer.byteLength(JSON.stringify(item.metadata.managedFields ?? []));
      const { managedFields: _managedFields, ...metadata } = item.metadata;
      bytes += itemBytes(item);
      compact += itemBytes({ ...item, metadata });
    }
    count += page.items.length;
    next = page.metadata.continue ?? '';
  } while (next);
  if (count !== n) {
    throw new Error(`namespace ${namespace} holds ${count} ${resource}, expected ${n}`);
  }
  const average = bytes / n;
  const compactBytes = compact / n;
  notes.push(
    `${n.toLocaleString('en-US')} ${resource} in ${namespace}: ${Math.round(average)} B of compact JSON each on average, ${managed} B of it managedFields; ${Math.round(compactBytes)} B without.`,
  );
  return compactBytes;
}

/** Merge-patches the objects round-robin, `writers` in flight, for `seconds`. */
async function write(conn, setup, seconds, writers) {
  const { names, resource = 'configmaps' } = setup;
  const path = pathOf(setup);
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
        patchFor(resource, i),
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
 * {@link SETTLE_MS}, under one stream of updates. With `relist`, then the heap of each
 * before and after a relist (see {@link relistAll}) in `relist[which]`.
 */
export async function eventRuns(setup, informers, conn, { seconds, writers, relist = false }) {
  let procs = informers.map((which) => ({
    which,
    proc: child(which, 'events', setup, 600_000),
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
    for (const { which, proc } of procs) results[which] = await proc.next();
    const relisted = relist ? await relistAll(setup, procs, conn) : undefined;
    for (const { proc } of procs) proc.end();
    for (const { proc } of procs) await proc.exited;
    return { writer, results, relist: relisted };
  } finally {
    for (const { proc } of procs) proc.kill();
  }
}

/**
 * Makes every informer of `procs` relist, as after an apiserver restart over a compacted
 * etcd: each child's live heap and version are read (`heap`), a write elsewhere moves etcd past every
 * version the informers hold, the apiserver is stopped, etcd compacted and the apiserver
 * started again, so the watch each resumes from its last version is answered 410 Gone and
 * it lists again; `relist <revision>` then waits in each child until it synced past the
 * compacted revision, and reads the heap a second later. Resolves, per informer,
 * `{ before, after, waitedMs }` (bytes, ms); `conn` gets fresh sockets.
 */
async function relistAll({ plane }, procs, conn) {
  const before = {};
  for (const { which, proc } of procs) {
    proc.send('heap');
    before[which] = await proc.next();
  }
  const bump = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'bench-relist-' } };
  await callJson(conn, 'POST', '/api/v1/namespaces/default/configmaps', bump, [201]);
  await plane.stopApiServer();
  const revision = await plane.compactEtcd();
  for (const [which, { version }] of Object.entries(before)) {
    // Past the compacted revision already, its watch would resume: no relist to measure.
    if (!(Number(version) < revision)) {
      throw new Error(`${which} holds version ${version}, not before the compacted ${revision}`);
    }
  }
  await plane.startApiServer();
  conn.agent.destroy();
  Object.assign(conn, await connect(plane.kubeConfig, conn.maxSockets));
  const result = {};
  for (const { proc } of procs) proc.send(`relist ${revision}`);
  for (const { which, proc } of procs) {
    const line = await proc.next();
    if (line.kind !== 'relist')
      throw new Error(`${which}: expected relist, got ${JSON.stringify(line)}`);
    result[which] = { before: before[which].heap, after: line.heap, waitedMs: line.waitedMs };
  }
  return result;
}
