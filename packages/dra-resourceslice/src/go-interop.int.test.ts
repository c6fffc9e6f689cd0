// Interop with the Go original: the ResourceSlice controller of k8s.io/dynamic-resource-allocation
// v0.35.0 (tooling/go-interop/dra-resourceslice, built once in the set-up: `pnpm setup:go`) and
// ours hand one driver's slices over to each other on a real apiserver. Whoever starts second
// with the same DriverResources must adopt the slices without a write; with a change it must
// make exactly the writes the Go controller makes from the same state; each must continue the
// other's pool generation.
//
// Both run with a 500 ms SyncDelay. A run has settled once every desired pool has been synced
// and its queue is idle: nothing queued or in flight, and no sync after an informer event (an
// item delayed by at most SyncDelay) still to come, SETTLE_MARGIN_MS after the last was due.
// The mutation cache's re-syncs a minute after a create are not waited for.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realClock } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { testKubeConfig, testKubeconfigPath } from '@ctrlkit/envtest/vitest';
import { goProgram } from '@ctrlkit/go-programs';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1Device, V1ResourceSlice } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listSlices } from '../test/scenario-runner.js';
import { countingClient, trackingQueue } from '../test/test-harness.js';
import { type Controller, startController } from './controller.js';
import {
  type DriverResources,
  deepCopyDriverResources,
  type Owner,
  type Pool,
} from './driver-resources.js';
import { toWireResources } from './internal/wire.js';
import { newKubeClient } from './kube-client.js';

const SYNC_DELAY_MS = 500;
/** As `settleMargin` in the Go program. */
const SETTLE_MARGIN_MS = 300;
const run = Math.random().toString(36).slice(2, 6);
const NODE = `interop-${run}`;

let binary = '';
let workDir = '';
let drivers = 0;
const goRuns = new Set<GoRun>();
const tsRuns = new Set<TsRun>();

/** Write counts of one run, and how far its queue has got. */
interface Counts {
  creates: number;
  updates: number;
  deletes: number;
  /** HTTP writes (Go: POST/PUT/PATCH/DELETE requests; ours: KubeClient write calls). */
  writes: number;
  /** ErrorHandler calls. */
  errors: number;
  processed: number;
  idle: boolean;
}

interface GoRun {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Sends one command line and resolves with its answer line. */
  command(op: 'stats' | 'stop' | 'update', resources?: DriverResources): Promise<Counts>;
}

interface TsRun {
  controller: Controller;
  counts(): Counts;
}

interface Run {
  counts(): Promise<Counts> | Counts;
  stop(): Promise<Counts>;
  update(resources: DriverResources): Promise<void>;
}

/** Resources as JSON for Go: the apiserver's field names (`int`, not client-node's `_int`). */
function wire(resources: DriverResources): DriverResources {
  const copy = deepCopyDriverResources(resources);
  toWireResources(copy);
  return copy;
}

/** Starts the Go controller for `driver` with `resources` and waits for its first line. */
async function startGo(driver: string, resources: DriverResources, node?: string): Promise<Run> {
  const file = join(workDir, `${driver}-${Math.random().toString(36).slice(2, 8)}.json`);
  await writeFile(file, JSON.stringify(wire(resources)));
  const child = spawn(
    binary,
    [
      `-kubeconfig=${testKubeconfigPath()}`,
      `-driver=${driver}`,
      `-resources=${file}`,
      `-sync-delay=${SYNC_DELAY_MS}ms`,
      ...(node ? [`-node=${node}`] : []),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const stderr: string[] = [];
  const waiting: Array<{ resolve(counts: Counts): void; reject(error: Error): void }> = [];
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.trim() !== '')) {
      waiting.shift()?.resolve(JSON.parse(line) as Counts);
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 50) stderr.shift();
  });
  // 'close', not 'exit': the last answer line has been read by then.
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      const error = new Error(`the Go controller exited (${code}); stderr:\n${stderr.join('')}`);
      for (const waiter of waiting.splice(0)) waiter.reject(error);
      resolve(code);
    }),
  );
  const next = () => new Promise<Counts>((resolve, reject) => waiting.push({ resolve, reject }));
  const go: GoRun = {
    child,
    exited,
    command: (op, res) => {
      const answer = next();
      child.stdin?.write(
        `${JSON.stringify(res === undefined ? { op } : { op, resources: wire(res) })}\n`,
      );
      return answer;
    },
  };
  goRuns.add(go);
  await next(); // "started"
  return {
    counts: () => go.command('stats'),
    update: async (res) => {
      await go.command('update', res);
    },
    stop: async () => {
      const counts = await go.command('stop');
      expect(await go.exited).toBe(0);
      goRuns.delete(go);
      expect(counts.errors, stderr.join('')).toBe(0);
      return counts;
    },
  };
}

/** Starts our controller for `driver` with `resources`, counting its KubeClient calls. */
async function startTs(driver: string, resources: DriverResources, node?: string): Promise<Run> {
  const kubeConfig = testKubeConfig();
  const client = countingClient(newKubeClient(kubeConfig));
  const queue = trackingQueue(realClock);
  let due = 0;
  const addAfter = queue.addAfter.bind(queue);
  queue.addAfter = (item, delay) => {
    if (delay <= SYNC_DELAY_MS) due = Math.max(due, Date.now() + delay);
    addAfter(item, delay);
  };
  const errors: string[] = [];
  const owner: Owner | undefined = node
    ? { apiVersion: 'v1', kind: 'Node', name: node }
    : undefined;
  const controller = await startController({
    driverName: driver,
    kubeClient: client,
    owner,
    resources,
    queue,
    syncDelayMs: SYNC_DELAY_MS,
    errorHandler: (error, message) => errors.push(`${message}: ${error.message}`),
  });
  const counts = (): Counts => {
    const stats = controller.getStats();
    return {
      creates: stats.numCreates,
      updates: stats.numUpdates,
      deletes: stats.numDeletes,
      writes: client.calls.create + client.calls.update + client.calls.delete,
      errors: errors.length,
      processed: queue.processed,
      idle: queue.idle() && Date.now() - due > SETTLE_MARGIN_MS,
    };
  };
  const ts: TsRun = { controller, counts };
  tsRuns.add(ts);
  return {
    counts,
    update: async (res) => controller.update(res),
    stop: async () => {
      await controller.stop();
      tsRuns.delete(ts);
      expect(errors).toEqual([]);
      return counts();
    },
  };
}

/** Waits until `run` has synced `pools` pools (at least) and has settled; returns its counts. */
async function settled(run: Run, pools: number): Promise<Counts> {
  return await waitFor(`${pools} pool syncs and an idle queue`, () => run.counts(), {
    until: (counts) => counts.idle && counts.processed >= pools,
    timeoutMs: 20_000,
  });
}

function newDriver(): string {
  drivers++;
  return `interop-${run}-${drivers}.example.com`;
}

/** The write counts, without the queue's progress. */
const writes = ({ creates, updates, deletes, writes }: Counts) => ({
  creates,
  updates,
  deletes,
  writes,
});

/** What a controller must keep or produce: slice names, resourceVersions and specs. */
const snapshot = (slices: V1ResourceSlice[]) =>
  slices.map((s) => ({
    name: s.metadata?.name,
    resourceVersion: s.metadata?.resourceVersion,
    spec: s.spec,
  }));

/** The key of the taint published without `timeAdded`: the apiserver sets the time of its write. */
const SERVER_TIMED_TAINT = 'example.com/maintenance';

/**
 * Specs without names or the driver, in a stable order (pool, then first device), and with
 * the apiserver's time in the {@link SERVER_TIMED_TAINT} taint (a different one per write).
 */
function specs(slices: V1ResourceSlice[]) {
  return slices
    .map((s) => {
      const { driver: _driver, ...spec } = structuredClone(
        s.spec as NonNullable<V1ResourceSlice['spec']>,
      );
      for (const taint of (spec.devices ?? []).flatMap((d) => d.taints ?? [])) {
        if (taint.key === SERVER_TIMED_TAINT) {
          expect(Date.parse(String(taint.timeAdded))).toBeGreaterThan(Date.now() - 600_000);
          taint.timeAdded = 'set by the apiserver' as unknown as Date;
        }
      }
      return spec;
    })
    .sort((a, b) => {
      const ka = `${a.pool.name}/${a.devices?.[0]?.name ?? ''}`;
      const kb = `${b.pool.name}/${b.devices?.[0]?.name ?? ''}`;
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
}

/** A device with an attribute of each type and two capacities. */
function device(name: string, index: number, firmware = '1.2.0'): V1Device {
  return {
    name,
    attributes: {
      index: { _int: index },
      healthy: { bool: true },
      model: { string: `model-${name}` },
      firmware: { version: firmware },
    },
    capacity: { memory: { value: '16Gi' }, cores: { value: '8' } },
  };
}

const nodeSelector = {
  nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [NODE] }] }],
};

/** Network-attached pools: two allNodes pools (one of two slices) and one for a node selector. */
function networkResources(): DriverResources {
  return {
    pools: {
      'pool-a': { slices: [{ devices: [device('a-0', 0), device('a-1', 1)] }] },
      'pool-b': {
        slices: [
          { devices: [device('b-0', 0)] },
          { devices: [device('b-1', 1), device('b-2', 2)] },
        ],
      },
      'pool-local': { nodeSelector, slices: [{ devices: [device('l-0', 0)] }] },
    },
  };
}

/** Node-local pools (owner the Node): two pools, one of them empty. */
function nodeResources(): DriverResources {
  return {
    pools: {
      [NODE]: { slices: [{ devices: [device('n-0', 0), device('n-1', 1)] }] },
      [`${NODE}-empty`]: { slices: [{ devices: [] }] },
    },
  };
}

/**
 * Devices with every optional field the apiserver (1.37) keeps: taints (one without
 * `timeAdded`, which the apiserver sets, one with a sub-second time, which both round),
 * consumable capacity with a request policy, binding conditions, and a counter set
 * consumed by partitions. Quantities are not canonical (`16384Mi`, `0.5`), so the stored
 * ones differ from the desired ones in text but not in value.
 */
function featureResources(): DriverResources {
  const counters = [{ name: 'gpu-0', counters: { memory: { value: '80Gi' } } }];
  const part = (i: number): V1Device => ({
    name: `gpu-0-part-${i}`,
    consumesCounters: [{ counterSet: 'gpu-0', counters: { memory: { value: '40960Mi' } } }],
  });
  return {
    pools: {
      'pool-shared': {
        slices: [
          {
            devices: [
              {
                ...device('s-0', 0),
                allowMultipleAllocations: true,
                capacity: {
                  memory: {
                    value: '16384Mi',
                    requestPolicy: {
                      _default: '1Gi',
                      validRange: { min: '1Gi', max: '16Gi', step: '1Gi' },
                    },
                  },
                  bandwidth: { value: '0.5' },
                },
                taints: [
                  { key: SERVER_TIMED_TAINT, value: 'soon', effect: 'NoSchedule' },
                  {
                    key: 'example.com/degraded',
                    effect: 'NoExecute',
                    timeAdded: new Date('2026-01-02T03:04:05.678Z'),
                  },
                ],
              },
              {
                ...device('s-1', 1),
                bindingConditions: ['example.com/attached'],
                bindingFailureConditions: ['example.com/attach-failed'],
                bindsToNode: true,
              },
            ],
          },
        ],
      },
      'pool-parts': {
        slices: [{ sharedCounters: counters }, { devices: [part(0), part(1)] }],
      },
    },
  };
}

const sliceCount = (resources: DriverResources) =>
  Object.values(resources.pools).reduce((n, p) => n + p.slices.length, 0);
const poolCount = (resources: DriverResources) => Object.keys(resources.pools).length;

/** Publishes `resources` with `start` from nothing and stops: one create per slice. */
async function publish(
  start: typeof startGo,
  driver: string,
  resources: DriverResources,
  node?: string,
) {
  const first = await start(driver, resources, node);
  const counts = await settled(first, poolCount(resources));
  await waitFor(
    'all slices listed',
    async () => (await listSlices(testKubeConfig(), driver)).length === sliceCount(resources),
    { timeoutMs: 10_000 },
  );
  const stopped = await first.stop();
  expect(writes(stopped)).toEqual(writes(counts));
  const n = sliceCount(resources);
  expect(writes(stopped)).toEqual({ creates: n, updates: 0, deletes: 0, writes: n });
  return listSlices(testKubeConfig(), driver);
}

/** Starts `start` on the published slices of `driver` with `resources`, waits until it has settled, stops it. */
async function takeOver(
  start: typeof startGo,
  driver: string,
  resources: DriverResources,
  node?: string,
) {
  const second = await start(driver, resources, node);
  await settled(second, poolCount(resources));
  const counts = await second.stop();
  return { counts: writes(counts), slices: await listSlices(testKubeConfig(), driver) };
}

beforeAll(async () => {
  // Built by the set-up, never here; a clear error naming `pnpm setup:go` when it is missing.
  binary = goProgram('dra-resourceslice-interop');
  // One directory per run (never the repository): the resources files.
  workDir = await mkdtemp(join(tmpdir(), 'ctrlkit-dra-interop-'));
  const client = createClient(testKubeConfig());
  await client.create('nodes', { metadata: { name: NODE } });
  client.close();
});

afterEach(async () => {
  await Promise.allSettled([...tsRuns].map((ts) => ts.controller.stop()));
  tsRuns.clear();
  for (const go of goRuns) {
    if (go.child.exitCode === null && go.child.signalCode === null) go.child.kill('SIGKILL');
    await go.exited;
  }
  goRuns.clear();
});

afterAll(async () => {
  if (workDir !== '') await rm(workDir, { recursive: true, force: true });
});

describe('ResourceSlice handover with the Go controller (k8s.io/dynamic-resource-allocation v0.35.0)', () => {
  describe.each([
    { kind: 'network pools (allNodes and a node selector)', resources: networkResources },
    { kind: 'node-local pools (owner a Node)', resources: nodeResources, node: NODE },
    { kind: 'devices with every optional field', resources: featureResources },
  ])('$kind', ({ resources, node }) => {
    it('Go publishes, ours adopts the slices without a write', async () => {
      const driver = newDriver();
      const published = await publish(startGo, driver, resources(), node);
      const { counts, slices } = await takeOver(startTs, driver, resources(), node);
      expect(counts).toEqual({ creates: 0, updates: 0, deletes: 0, writes: 0 });
      expect(snapshot(slices)).toEqual(snapshot(published));
    });

    it('ours publishes, Go adopts the slices without a write', async () => {
      const driver = newDriver();
      const published = await publish(startTs, driver, resources(), node);
      const { counts, slices } = await takeOver(startGo, driver, resources(), node);
      expect(counts).toEqual({ creates: 0, updates: 0, deletes: 0, writes: 0 });
      expect(snapshot(slices)).toEqual(snapshot(published));
      // What ours published is what Go publishes for the same resources: the same specs,
      // generateName (of the driver) and owner references.
      const goDriver = newDriver();
      const byGo = await publish(startGo, goDriver, resources(), node);
      expect(specs(published)).toEqual(specs(byGo));
      const meta = (slices: V1ResourceSlice[], name: string) =>
        slices.map((s) => ({
          generateName: s.metadata?.generateName?.replace(name, 'DRIVER'),
          ownerReferences: s.metadata?.ownerReferences,
        }));
      expect(meta(published, driver)).toEqual(meta(byGo, goDriver));
      expect(meta(byGo, goDriver)[0]?.generateName).toBe(node ? `${node}-DRIVER-` : 'DRIVER-');
    });
  });

  it('Go published; ours starts with a device changed and a pool removed and writes what Go would', async () => {
    const changed = networkResources();
    const devices = changed.pools['pool-b']?.slices[1]?.devices as V1Device[];
    devices[0] = device('b-1', 1, '1.3.0');
    delete changed.pools['pool-local'];

    const ours = newDriver();
    const theirs = newDriver();
    await Promise.all([
      publish(startGo, ours, networkResources()),
      publish(startGo, theirs, networkResources()),
    ]);
    const [byTs, byGo] = await Promise.all([
      takeOver(startTs, ours, changed),
      takeOver(startGo, theirs, changed),
    ]);

    expect(byGo.counts).toEqual({ creates: 0, updates: 1, deletes: 1, writes: 2 });
    expect(byTs.counts).toEqual(byGo.counts);
    expect(specs(byTs.slices)).toEqual(specs(byGo.slices));
    expect(specs(byTs.slices).map((s) => s.pool.name)).toEqual(['pool-a', 'pool-b', 'pool-b']);
    const updated = byTs.slices.find((s) => s.spec?.devices?.[0]?.name === 'b-1');
    expect(updated?.spec?.devices?.[0]?.attributes?.firmware).toEqual({ version: '1.3.0' });
  });

  it('Go published; ours starts with other changes and writes what Go would (each from the same state)', async () => {
    const other = {
      nodeSelectorTerms: [
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: [`${NODE}-b`] }] },
      ],
    };
    // Each change applies to the network pools, or to the node-local ones when it names NODE.
    const changes: Record<
      string,
      [(r: DriverResources) => void, ReturnType<typeof writes>, typeof NODE?]
    > = {
      'a device added to a one-slice pool': [
        (r) => r.pools['pool-a']?.slices[0]?.devices?.push(device('a-2', 2)),
        { creates: 0, updates: 1, deletes: 0, writes: 1 },
      ],
      'a device added to one slice of a two-slice pool': [
        (r) => r.pools['pool-b']?.slices[0]?.devices?.push(device('b-3', 3)),
        { creates: 1, updates: 1, deletes: 1, writes: 3 },
      ],
      'a slice removed from a two-slice pool': [
        (r) => r.pools['pool-b']?.slices.shift(),
        { creates: 0, updates: 1, deletes: 1, writes: 2 },
      ],
      'a slice added to a pool': [
        (r) => r.pools['pool-a']?.slices.push({ devices: [device('a-9', 9)] }),
        { creates: 1, updates: 1, deletes: 0, writes: 2 },
      ],
      'two slices of a pool changed': [
        (r) => {
          for (const slice of r.pools['pool-b']?.slices ?? []) {
            slice.devices = slice.devices?.map((d, i) => device(d.name, i, '2.0.0'));
          }
        },
        { creates: 0, updates: 2, deletes: 0, writes: 2 },
      ],
      'devices reordered in a slice': [
        (r) => r.pools['pool-a']?.slices[0]?.devices?.reverse(),
        { creates: 0, updates: 1, deletes: 0, writes: 1 },
      ],
      'another node selector': [
        (r) => {
          (r.pools['pool-local'] as Pool).nodeSelector = other;
        },
        { creates: 0, updates: 1, deletes: 0, writes: 1 },
      ],
      'a node selector for an allNodes pool': [
        (r) => {
          (r.pools['pool-a'] as Pool).nodeSelector = other;
        },
        { creates: 0, updates: 1, deletes: 0, writes: 1 },
      ],
      'a higher pool generation': [
        (r) => {
          (r.pools['pool-a'] as Pool).generation = 5;
        },
        { creates: 0, updates: 1, deletes: 0, writes: 1 },
      ],
      'a pool left without slices': [
        (r) => {
          (r.pools['pool-b'] as Pool).slices = [];
        },
        { creates: 0, updates: 0, deletes: 2, writes: 2 },
      ],
      'slices of a pool reordered': [
        (r) => r.pools['pool-b']?.slices.reverse(),
        { creates: 0, updates: 0, deletes: 0, writes: 0 },
      ],
      'a node selector removed (allNodes)': [
        (r) => {
          delete (r.pools['pool-local'] as Pool).nodeSelector;
        },
        { creates: 0, updates: 1, deletes: 0, writes: 1 },
      ],
      'node-local: a device added, the empty pool removed': [
        (r) => {
          r.pools[NODE]?.slices[0]?.devices?.push(device('n-2', 2));
          delete r.pools[`${NODE}-empty`];
        },
        { creates: 0, updates: 1, deletes: 1, writes: 2 },
        NODE,
      ],
      'node-local: a second slice in a pool': [
        (r) => r.pools[`${NODE}-empty`]?.slices.push({ devices: [device('e-0', 0)] }),
        { creates: 1, updates: 1, deletes: 0, writes: 2 },
        NODE,
      ],
      'a pool added': [
        (r) => {
          r.pools['pool-c'] = { slices: [{ devices: [device('c-0', 0)] }] };
        },
        { creates: 1, updates: 0, deletes: 0, writes: 1 },
      ],
      'every pool removed': [
        (r) => {
          r.pools = {};
        },
        { creates: 0, updates: 0, deletes: 4, writes: 4 },
      ],
    };
    const results = await Promise.all(
      Object.entries(changes).map(async ([name, [change, , node]]) => {
        const initial = node ? nodeResources : networkResources;
        const changed = initial();
        change(changed);
        const ours = newDriver();
        const theirs = newDriver();
        await Promise.all([
          publish(startGo, ours, initial(), node),
          publish(startGo, theirs, initial(), node),
        ]);
        const [byTs, byGo] = await Promise.all([
          takeOver(startTs, ours, changed, node),
          takeOver(startGo, theirs, changed, node),
        ]);
        return [name, byTs, byGo] as const;
      }),
    );
    const table = (pick: (r: (typeof results)[number]) => unknown) =>
      Object.fromEntries(results.map((r) => [r[0], pick(r)]));
    expect(table(([, , byGo]) => byGo.counts)).toEqual(
      Object.fromEntries(Object.entries(changes).map(([name, [, counts]]) => [name, counts])),
    );
    expect(table(([, byTs]) => byTs.counts)).toEqual(table(([, , byGo]) => byGo.counts));
    expect(table(([, byTs]) => specs(byTs.slices))).toEqual(
      table(([, , byGo]) => specs(byGo.slices)),
    );
  }, 60_000);

  it('a taint time set by the apiserver survives a handover that updates the device, as with Go', async () => {
    const changed = featureResources();
    const shared = changed.pools['pool-shared']?.slices[0]?.devices?.[0] as V1Device;
    shared.attributes = { ...shared.attributes, firmware: { version: '9.0.0' } };
    const serverTime = (slices: V1ResourceSlice[]) =>
      slices
        .flatMap((s) => s.spec?.devices ?? [])
        .flatMap((d) => d.taints ?? [])
        .find((t) => t.key === SERVER_TIMED_TAINT)?.timeAdded;

    const ours = newDriver();
    const theirs = newDriver();
    const [before, beforeGo] = await Promise.all([
      publish(startGo, ours, featureResources()),
      publish(startGo, theirs, featureResources()),
    ]);
    const [byTs, byGo] = await Promise.all([
      takeOver(startTs, ours, changed),
      takeOver(startGo, theirs, changed),
    ]);
    expect(byGo.counts).toEqual({ creates: 0, updates: 1, deletes: 0, writes: 1 });
    expect(byTs.counts).toEqual(byGo.counts);
    expect(Date.now() - Date.parse(String(serverTime(before)))).toBeLessThan(600_000);
    expect(serverTime(byGo.slices)).toEqual(serverTime(beforeGo));
    expect(serverTime(byTs.slices)).toEqual(serverTime(before));
    expect(specs(byTs.slices)).toEqual(specs(byGo.slices));
  });

  it('each continues the pool generation the other left', async () => {
    const slices = (n: number, firmware = '1.2.0') => ({
      pools: {
        pool: {
          slices: Array.from({ length: n }, (_, i) => ({
            devices: [device(`d-${i}`, i, firmware)],
          })),
        },
      },
    });
    const driver = newDriver();
    const generations = async () =>
      (await listSlices(testKubeConfig(), driver)).map((s) => s.spec?.pool);

    // Go: one slice (generation 1), then a second one added in place (generation 2).
    const go = await startGo(driver, slices(1));
    await settled(go, 1);
    await go.update(slices(2));
    await waitFor('Go added a slice', async () => (await go.counts()).creates === 2, {
      timeoutMs: 10_000,
    });
    await waitFor(
      'Go bumped the generation to 2',
      async () => (await generations()).every((p) => p?.generation === 2),
      { timeoutMs: 10_000 },
    );
    expect(writes(await go.stop())).toEqual({ creates: 2, updates: 1, deletes: 0, writes: 3 });

    // Ours adds a third slice: generation 3, from Go's 2.
    const byTs = await takeOver(startTs, driver, slices(3));
    expect(byTs.counts).toEqual({ creates: 1, updates: 2, deletes: 0, writes: 3 });
    expect(await generations()).toEqual(
      Array.from({ length: 3 }, () => ({ name: 'pool', generation: 3, resourceSliceCount: 3 })),
    );

    // Go changes every device (more than one slice changed): generation 4, from ours' 3.
    const byGo = await takeOver(startGo, driver, slices(3, '2.0.0'));
    expect(byGo.counts).toEqual({ creates: 0, updates: 3, deletes: 0, writes: 3 });
    expect(await generations()).toEqual(
      Array.from({ length: 3 }, () => ({ name: 'pool', generation: 4, resourceSliceCount: 3 })),
    );
  });
});
