// The plan benchmark: plans of 10, 100 and 200 VMs run to Succeeded on the simulated source
// provider, driven reconcile by reconcile the way the controller drives them (the same
// reconcilePlan, MigrationRunner and scheduler), on a fake clock stepped by the requeue delay.
//
// Run: pnpm --filter @ctrlkit/plan-migration bench   (build first: pnpm --filter @ctrlkit/plan-migration build)
// With -- --scale: one Plan of 10 / 100 / 1,000 VMs instead (bench/scale.mjs).
// Knobs (environment): SIZES (comma list, "10,100,200"), API_SIZES (the sizes of part 2,
// against the apiserver, "10,100": 200 VMs there take several minutes), DISKS (per VM, 2),
// DISK_MIB (2048), RATE (MiB/s per disk, 1024), REPEATS (3; the table shows medians),
// POLL_MS (part 2's poll, 100). Both tables are written, with the run's commit, date and load,
// to bench/results/plan-migration.json (the README's tables).
//
// Measured per plan size:
// - reconcile passes until the plan settles, and passes per VM;
// - API writes: one Plan status write per pass that computed a status (what the controller
//   writes, as Forklift's updatePlanStatus at the end of each reconcile) plus the
//   destination's creates and deletes (namespace, one object per disk, the VM, cleanups);
// - status writes per VM phase: status writes ÷ (VMs × phases each VM walks);
// - CPU wall time of the whole run, and per VM; the slope of the per-VM cost against N
//   (least squares; flat ≈ 0).
//
// Forklift's pattern (notes, "Reconcile" step 7): one Status().Update of the Plan per
// reconcile, whatever the number of VMs that moved in it; Migration status is mirrored by
// the migration controller. Each pass moves every in-flight VM (≤ MAX_VM_INFLIGHT = 20) by
// one phase at most, so writes per VM phase fall as more VMs run at once.
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { FakeClock } from '@ctrlkit/core/testing';
import { startMeasuring, writeResults } from '@ctrlkit/figures';
import { BaseMigrator } from '@ctrlkit/plan-migration/pipeline';
import { PlanHarness } from '@ctrlkit/plan-migration/testing';

const started = startMeasuring();
if (process.argv.includes('--scale')) {
  // One Plan of 10 / 100 / 1,000 VMs (bench/scale.mjs): its own tables, curves, results file.
  const { scaleTables } = await import('./scale.mjs');
  const { storedTable } = await import('./scale-stored.mjs');
  const { tables, curves } = await scaleTables();
  const scaleSizes = (process.env.SCALE_SIZES ?? '10,100,1000').split(',').map(Number);
  const scaleDisks = Number(process.env.DISKS ?? 2);
  const scaleDiskMiB = Number(process.env.DISK_MIB ?? 2048);
  const scaleRate = Number(process.env.RATE ?? 1024);
  const scaleKnobs = [
    'SCALE_SIZES',
    'DISKS',
    'DISK_MIB',
    'RATE',
    'REPEATS',
    'BASELINE_DIST',
    'BASELINE_LABEL',
  ];
  writeResults(join(dirname(fileURLToPath(import.meta.url)), 'results/plan-migration-scale.json'), {
    command: [
      ...scaleKnobs
        .filter((k) => process.env[k] !== undefined)
        .map((k) => `${k}=${process.env[k]}`),
      'pnpm --filter @ctrlkit/plan-migration bench -- --scale',
    ].join(' '),
    started,
    tables: {
      ...tables,
      stored: await storedTable(scaleSizes, scaleDisks, scaleDiskMiB, scaleRate),
    },
    curves,
  });
  process.exit(0);
}
const KNOBS = ['SIZES', 'API_SIZES', 'DISKS', 'DISK_MIB', 'RATE', 'REPEATS', 'POLL_MS'];
const command = [
  ...KNOBS.filter((k) => process.env[k] !== undefined).map((k) => `${k}=${process.env[k]}`),
  'pnpm --filter @ctrlkit/plan-migration bench',
].join(' ');

const sizes = (process.env.SIZES ?? '10,100,200').split(',').map(Number);
const disks = Number(process.env.DISKS ?? 2);
const diskMiB = Number(process.env.DISK_MIB ?? 2048);
const rate = Number(process.env.RATE ?? 1024);
const repeats = Number(process.env.REPEATS ?? 3);
const apiSizes = (process.env.API_SIZES ?? '10,100').split(',').map(Number);

async function once(n) {
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const h = new PlanHarness({ clock, vms: n, disks, diskMiB, copyRateMiBPerSecond: rate });
  h.addMigration();
  const t0 = performance.now();
  for (let pass = 0; pass < 1_000_000; pass++) {
    const reQ = await h.reconcile();
    if (reQ === 0) break;
    clock.step(reQ);
  }
  const ms = performance.now() - t0;
  const vms = h.plan.status.migration.vms;
  const ok = vms.filter((v) => v.conditions?.some((c) => c.type === 'Succeeded')).length;
  if (ok !== n) throw new Error(`only ${ok} of ${n} VMs succeeded`);
  // Phases a VM walks: its itinerary (every VM of a cold simulated plan walks the same one).
  const migrator = new BaseMigrator({
    plan: h.plan,
    sourceType: 'simulated',
    builder: h.source,
    clock,
    settings: h.settings,
    inventory: new Map(),
  });
  const phases = migrator.itinerary(h.plan.spec.vms[0]).list().length;
  return {
    passes: h.passes,
    statusWrites: h.statusWrites,
    destinationWrites: h.destination.writes,
    ms,
    phases,
  };
}

await once(10); // warm-up (JIT), not measured
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const n of sizes) {
  const runs = [];
  for (let r = 0; r < repeats; r++) runs.push(await once(n));
  const m = (k) => median(runs.map((x) => x[k]));
  rows.push({
    n,
    passes: m('passes'),
    statusWrites: m('statusWrites'),
    destinationWrites: m('destinationWrites'),
    ms: m('ms'),
    phases: runs[0].phases,
  });
}

const fmt = (x, d = 2) => x.toFixed(d);
/** Least-squares slope of ms/VM against VMs, and the mean ms/VM. */
function slopeOf(xs, ys) {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const slope =
    xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) /
    xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  return { slope, mean: my };
}
/** Prints `table` as Markdown with its title and caption, and returns it. */
function show(title, table) {
  console.log(`\n${title}`);
  console.log(`| ${table.columns.join(' | ')} |`);
  console.log(`|${table.columns.map(() => '---:').join('|')}|`);
  for (const row of table.rows) console.log(`| ${row.join(' | ')} |`);
  console.log(table.caption);
  return table;
}
const simulated = rows.map((r) => r.n);
const inMemory = slopeOf(
  simulated,
  rows.map((r) => r.ms / r.n),
);
const plans = show(
  `plans on the simulated source: ${disks} disks × ${diskMiB} MiB per VM at ${rate} MiB/s, medians of ${repeats}`,
  {
    columns: [
      'VMs',
      'passes',
      'passes/VM',
      'status writes',
      'status writes/VM phase',
      'destination writes/VM',
      'ms total',
      'ms/VM',
    ],
    rows: rows.map((r) => [
      r.n,
      r.passes,
      fmt(r.passes / r.n),
      r.statusWrites,
      fmt(r.statusWrites / (r.n * r.phases), 3),
      fmt(r.destinationWrites / r.n),
      fmt(r.ms, 0),
      fmt(r.ms / r.n, 3),
    ]),
    caption: `In memory, driven reconcile by reconcile: ${disks} disks × ${diskMiB} MiB per VM at ${rate} MiB/s, medians of ${repeats} runs. Slope of ms/VM against VMs: ${inMemory.slope.toExponential(2)} ms per added VM (flat ≈ 0; mean ${fmt(inMemory.mean, 3)} ms/VM).`,
  },
);

// Part 2: the same plans through the PlanController against a real kube-apiserver and etcd
// (@ctrlkit/envtest), polling every POLL_MS instead of PollReQ's 3 s. API writes = Plan and
// Migration status writes + destination writes (ConfigMaps standing in for disks and VMs).
const { startControlPlane, installCRDs, createTestNamespace } = await import('@ctrlkit/envtest');
const { CustomObjectsApi } = await import('@kubernetes/client-node');
const { realClock } = await import('@ctrlkit/core');
const { PlanController, SimulatedSource, forkliftCrds, GROUP, VERSION, PLURALS, API_VERSION } =
  await import('@ctrlkit/plan-migration');
const pollMs = Number(process.env.POLL_MS ?? 100);
const plane = await startControlPlane({});
try {
  const kubeConfig = plane.kubeConfig;
  await installCRDs(kubeConfig, [...forkliftCrds]);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const create = (kind, namespace, body) =>
    custom.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURALS[kind],
      namespace,
      body: { apiVersion: API_VERSION, kind, ...body },
    });
  const ready = {
    observedGeneration: 1,
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        category: 'Required',
        lastTransitionTime: new Date().toISOString().replace(/\.\d+Z/, 'Z'),
      },
    ],
  };
  const apiRows = [];
  for (const n of apiSizes) {
    const namespace = await createTestNamespace(kubeConfig, 'bench-');
    const target = await createTestNamespace(kubeConfig, 'bench-target-');
    const pair = { source: { name: 'src' }, destination: { name: 'host' } };
    for (const [kind, name, spec] of [
      ['Provider', 'src', { type: 'simulated' }],
      ['Provider', 'host', { type: 'openshift' }],
      [
        'NetworkMap',
        'net',
        { provider: pair, map: [{ source: { id: 'net-1' }, destination: { type: 'pod' } }] },
      ],
      [
        'StorageMap',
        'sto',
        {
          provider: pair,
          map: [{ source: { id: 'ds-1' }, destination: { storageClass: 'standard' } }],
        },
      ],
    ]) {
      await create(kind, namespace, { metadata: { name }, spec });
      await custom.replaceNamespacedCustomObjectStatus({
        group: GROUP,
        version: VERSION,
        plural: PLURALS[kind],
        namespace,
        name,
        body: {
          ...(await custom.getNamespacedCustomObject({
            group: GROUP,
            version: VERSION,
            plural: PLURALS[kind],
            namespace,
            name,
          })),
          status: ready,
        },
      });
    }
    const source = new SimulatedSource({
      clock: realClock,
      copyRateMiBPerSecond: rate,
      vms: Array.from({ length: n }, (_, i) => ({
        id: `vm-${i}`,
        name: `vm-${i}`,
        powerState: 'On',
        networks: ['net-1'],
        disks: Array.from({ length: disks }, (_, d) => ({
          id: `disk-${d}`,
          capacityMiB: diskMiB,
          datastore: 'ds-1',
        })),
      })),
    });
    const stop = new AbortController();
    const controller = new PlanController({
      kubeConfig,
      sources: () => ({
        inventory: source,
        client: source,
        builder: source,
        validator: (plan, maps) => source.validator(plan, maps),
      }),
      pollIntervalMs: pollMs,
    });
    const done = controller.run(stop.signal);
    await create('Plan', namespace, {
      metadata: { name: 'plan' },
      spec: {
        provider: pair,
        targetNamespace: target,
        map: { network: { name: 'net' }, storage: { name: 'sto' } },
        vms: Array.from({ length: n }, (_, i) => ({ id: `vm-${i}` })),
      },
    });
    const t0 = performance.now();
    await create('Migration', namespace, {
      metadata: { name: 'm' },
      spec: { plan: { name: 'plan' } },
    });
    for (;;) {
      const plan = await custom.getNamespacedCustomObject({
        group: GROUP,
        version: VERSION,
        plural: PLURALS.Plan,
        namespace,
        name: 'plan',
      });
      const types = (plan.status?.conditions ?? [])
        .filter((c) => c.status === 'True')
        .map((c) => c.type);
      if (types.includes('Succeeded')) break;
      if (types.includes('Failed') || types.includes('Canceled'))
        throw new Error(`plan ended ${types}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const ms = performance.now() - t0;
    stop.abort();
    await done;
    apiRows.push({
      n,
      passes: controller.reconciles,
      statusWrites: controller.statusWrites,
      destinationWrites: controller.destinationWrites,
      ms,
    });
  }
  const phases = rows[0].phases;
  const api = slopeOf(
    apiRows.map((r) => r.n),
    apiRows.map((r) => r.ms / r.n),
  );
  const apiTable = show(
    `the PlanController against kube-apiserver (envtest), polling every ${pollMs} ms, one run each`,
    {
      columns: [
        'VMs',
        'reconciles',
        'reconciles/VM',
        'status writes (Plan+Migration)',
        'status writes/VM phase',
        'destination writes/VM',
        'API writes/VM',
        's total',
        'ms/VM',
      ],
      rows: apiRows.map((r) => [
        r.n,
        r.passes,
        fmt(r.passes / r.n),
        r.statusWrites,
        fmt(r.statusWrites / (r.n * phases), 3),
        fmt(r.destinationWrites / r.n),
        fmt((r.statusWrites + r.destinationWrites) / r.n),
        fmt(r.ms / 1000, 1),
        fmt(r.ms / r.n, 1),
      ]),
      caption: `The PlanController against a real kube-apiserver (envtest), polling every ${pollMs} ms, one run per size. Slope of ms/VM against VMs: ${apiRows.length > 1 ? api.slope.toExponential(2) : '-'} (mean ${fmt(api.mean, 1)} ms/VM).`,
    },
  );
  writeResults(join(dirname(fileURLToPath(import.meta.url)), 'results/plan-migration.json'), {
    command,
    started,
    tables: { plans, api: apiTable },
  });
} finally {
  await plane.stop();
}
