// The plan scale benchmark (issue 36 item 5): one Plan of 10, 100 and 1,000 VMs run to
// Succeeded on the simulated source and the in-memory destination, driven reconcile by
// reconcile the way the controller drives it (reconcilePlan, MigrationRunner, scheduler), on a
// fake clock stepped by the requeue delay: the simulated copy durations cost no real time, the
// work (every reconcile, every status computed) is all done.
//
// Run: pnpm --filter @ctrlkit/plan-migration bench -- --scale   (build first)
// Knobs (environment): SCALE_SIZES ("10,100,1000"), REPEATS (3), DISKS (2), DISK_MIB (2048),
// RATE (MiB/s per disk, 1024); BASELINE_DIST (another build's dist folder, e.g. an earlier
// commit's copied to .baseline-dist/, gitignored) and BASELINE_LABEL (what it is): its rounds
// run alternating with this build's, a row each, for before/after in one table. Each round runs in its own Node process (--expose-gc), so the
// heap of one round does not carry into the next. Writes bench/results/plan-migration-scale.json
// and an SVG per curve beside it (bench/scale-curves.mjs).
//
// Measured per round:
// - reconciles until the plan settles, and Plan status writes (one per reconcile that computed
//   a status, as Forklift's updatePlanStatus), per VM;
// - wall time and CPU time (user + system, GC included) of the run, per VM;
// - peak heap: V8's used heap after a full GC before the run, and the highest used heap seen
//   after any reconcile; per VM = (peak - baseline) / VMs;
// - retained heap: after a full GC at the end (the plan, its status, the simulators);
// - the Plan's size: bytes of the object as the status PUT sends it and etcd stores it (JSON),
//   at its largest over the run (measured after every reconcile, outside the timed work), and
//   of `status` alone.
// There is no Go peer: Forklift's plan controller needs real hypervisors (vSphere, oVirt, …).
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scaleCurves } from './scale-curves.mjs';

const disks = Number(process.env.DISKS ?? 2);
const diskMiB = Number(process.env.DISK_MIB ?? 2048);
const rate = Number(process.env.RATE ?? 1024);

/**
 * One round of `n` VMs in this process, on the build in `dist` or this package's; returns its
 * figures. With `sizes`, also serializes the Plan after every reconcile (then time and heap are
 * not reported: the JSON would skew them).
 */
async function round(n, sizes, dist) {
  const { FakeClock } = await import('@ctrlkit/core/testing');
  const { PlanHarness } = await import(
    dist ? pathToFileURL(join(resolve(dist), 'testing.js')).href : '@ctrlkit/plan-migration/testing'
  );
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const h = new PlanHarness({ clock, vms: n, disks, diskMiB, copyRateMiBPerSecond: rate });
  h.addMigration();
  globalThis.gc();
  const heap0 = process.memoryUsage().heapUsed;
  let peak = heap0;
  let planBytes = 0;
  let statusBytes = 0;
  let putBytes = 0; // bytes of every status write (each PUTs the whole Plan)
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let pass = 0; pass < 1_000_000; pass++) {
    const writes = h.statusWrites;
    const reQ = await h.reconcile();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    if (sizes) {
      // After every reconcile: the largest object the PUT sends and etcd stores (JSON).
      const bytes = Buffer.byteLength(JSON.stringify(h.plan));
      planBytes = Math.max(planBytes, bytes);
      if (h.statusWrites > writes) putBytes += bytes;
      statusBytes = Math.max(statusBytes, Buffer.byteLength(JSON.stringify(h.plan.status)));
    }
    if (reQ === 0) break;
    clock.step(reQ);
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  globalThis.gc();
  const retained = process.memoryUsage().heapUsed;
  const ok = h.plan.status.migration.vms.filter((v) =>
    v.conditions?.some((c) => c.type === 'Succeeded'),
  ).length;
  if (ok !== n) throw new Error(`only ${ok} of ${n} VMs succeeded`);
  return {
    n,
    passes: h.passes,
    statusWrites: h.statusWrites,
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    heapPeakMiB: (peak - heap0) / 2 ** 20,
    heapRetainedMiB: (retained - heap0) / 2 ** 20,
    planBytes,
    statusBytes,
    putBytes,
    parts: partsOf(h.plan.status),
  };
}

/** Mean JSON bytes per VM status by part, and the plan-level rest, of a settled status. */
function partsOf(status) {
  const { vms, ...migration } = status.migration;
  const len = (x) => (x === undefined ? 0 : Buffer.byteLength(JSON.stringify(x)));
  const mean = (f) => vms.reduce((a, vm) => a + f(vm), 0) / vms.length;
  return {
    vm: mean(len),
    steps: mean((vm) => len(vm.pipeline.map(({ tasks, ...step }) => step))),
    tasks: mean((vm) => len(vm.pipeline.flatMap((step) => step.tasks ?? []))),
    conditions: mean((vm) => len(vm.conditions)),
    planLevel: len({ ...status, migration }),
  };
}

/**
 * Runs one round of `n` VMs in a child Node process with --expose-gc (`sizes`: see round), on
 * this build or, with `baseline`, on the build in BASELINE_DIST.
 */
function child(n, sizes = false, baseline = false) {
  const args = [
    '--expose-gc',
    fileURLToPath(import.meta.url),
    String(n),
    sizes ? 'sizes' : 'timed',
    ...(baseline ? [process.env.BASELINE_DIST] : []),
  ];
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.on('error', reject);
    p.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`round of ${n} VMs exited ${code}`)),
    );
  });
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.round((xs.length - 1) * q)];
/** `median (min–max)` of `xs` with `d` decimals. */
const spread = (xs, d) =>
  `${quantile(xs, 0.5).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;

/** The scale table's row of `n` VMs on `build` from its timed `runs` and its sizing round. */
function rowOf(n, build, runs, sized) {
  const per = (k) => runs.map((x) => x[k] / n);
  const kibPerVM = (k) => runs.map((x) => (x[k] * 1024) / n);
  return [
    n,
    build,
    spread(per('passes'), 3),
    spread(per('statusWrites'), 3),
    spread(per('ms'), 3),
    spread(per('cpuMs'), 3),
    spread(
      runs.map((x) => x.heapPeakMiB),
      1,
    ),
    spread(kibPerVM('heapPeakMiB'), 1),
    spread(kibPerVM('heapRetainedMiB'), 2),
    (sized.statusBytes / 1024).toFixed(1),
    (sized.planBytes / 1024).toFixed(1),
    (sized.putBytes / n / 1024).toFixed(1),
  ];
}

/**
 * Runs every size `repeats` times (and, with BASELINE_DIST, as many rounds of that build,
 * alternating) and returns the scale table, the status bytes by part and the curves
 * (bench/scale-curves.mjs).
 */
export async function scaleTables() {
  const sizes = (process.env.SCALE_SIZES ?? '10,100,1000').split(',').map(Number);
  const repeats = Number(process.env.REPEATS ?? 3);
  const baseline = process.env.BASELINE_DIST !== undefined;
  const rows = [];
  const parts = [];
  const ours = { build: 'this commit', points: [] };
  const before = { build: 'baseline', points: [] };
  for (const n of sizes) {
    const runs = [];
    const baseRuns = [];
    for (let r = 0; r < repeats; r++) {
      if (baseline) baseRuns.push(await child(n, false, true));
      runs.push(await child(n));
    }
    // Sizes are deterministic (a fake clock, the same inputs): one sizing round per size.
    const sized = await child(n, true);
    if (baseline) {
      const baseSized = await child(n, true, true);
      rows.push(rowOf(n, 'baseline', baseRuns, baseSized));
      before.points.push({ n, runs: baseRuns, sized: baseSized });
    }
    rows.push(rowOf(n, 'this commit', runs, sized));
    ours.points.push({ n, runs, sized });
    parts.push([
      n,
      ...['vm', 'steps', 'tasks', 'conditions', 'planLevel'].map((k) => Math.round(sized.parts[k])),
    ]);
    console.error(`scale: ${n} VMs done`, rows.at(-1));
  }
  const statusParts = {
    columns: ['VMs', 'B/VM status', 'B/VM steps', 'B/VM tasks', 'B/VM conditions', 'B plan-level'],
    rows: parts,
    caption: `Where the Plan status's bytes go once the plan has succeeded (${disks} disks per VM): a VM's status in JSON, of which its pipeline steps without their tasks, the steps' tasks (one per disk) and the VM's conditions; and the plan-level rest (plan conditions, migration history). From the sizing round of each size.`,
  };
  const scale = {
    columns: [
      'VMs',
      'build',
      'reconciles/VM',
      'status writes/VM',
      'ms/VM',
      'CPU ms/VM',
      'peak heap MiB',
      'peak heap KiB/VM',
      'retained KiB/VM',
      'status KiB',
      'Plan KiB',
      'KiB PUT/VM',
    ],
    rows,
    caption: `One Plan on the simulated source (${disks} disks × ${diskMiB} MiB per VM at ${rate} MiB/s, on a fake clock), driven reconcile by reconcile; median (min–max) of ${repeats} rounds, each in its own process; the sizes (deterministic) from one more round that serializes the Plan after every reconcile. Peak heap: the highest used heap after any reconcile, above the heap after a full GC before the run (garbage included); retained: after a full GC at the end (the plan and its status). Status and Plan KiB: the JSON the status PUT sends and etcd stores, the largest over the run; KiB PUT/VM: the bytes of all status writes (each PUTs the whole Plan) per VM. ${baseline ? `Baseline: the build in BASELINE_DIST (${process.env.BASELINE_LABEL ?? 'unlabelled'}), its rounds alternating with this commit's. ` : ''}No Go peer: Forklift needs real hypervisors.`,
  };
  // The baseline first, so that where the two lines coincide this commit's is drawn on top.
  const curves = scaleCurves(baseline ? [before, ours] : [ours]);
  return { tables: { scale, statusParts }, curves };
}

if (process.argv[2] !== undefined && /^\d+$/.test(process.argv[2])) {
  await round(10, false, process.argv[4]); // warm-up (JIT), not reported
  const [n, mode, baseline] = process.argv.slice(2);
  const figures = await round(Number(n), mode === 'sizes', baseline);
  process.stdout.write(JSON.stringify(figures));
}
