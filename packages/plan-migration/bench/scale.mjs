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
import { forkliftVM, forkliftVSphereVM, jsonBytes } from './scale-forklift.mjs';

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

/**
 * Mean JSON bytes per VM status by part, the plan-level rest, and what Forklift's types give
 * the same VMs (bench/scale-forklift.mjs), of a settled status.
 */
function partsOf(status) {
  const { vms, ...migration } = status.migration;
  const mean = (f) => vms.reduce((a, vm) => a + f(vm), 0) / vms.length;
  return {
    vm: mean(jsonBytes),
    steps: mean((vm) => jsonBytes(vm.pipeline.map(({ tasks, ...step }) => step))),
    tasks: mean((vm) => jsonBytes(vm.pipeline.flatMap((step) => step.tasks ?? []))),
    conditions: mean((vm) => jsonBytes(vm.conditions)),
    planLevel: jsonBytes({ ...status, migration }),
    forklift: mean((vm) => jsonBytes(forkliftVM(vm))),
    forkliftVSphere: mean((vm) => jsonBytes(forkliftVSphereVM(vm))),
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

/** The status parts of partsOf, in the table's order. */
const PARTS = ['vm', 'steps', 'tasks', 'conditions', 'planLevel', 'forklift', 'forkliftVSphere'];

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

const MiB = 2 ** 20;

/**
 * How many VMs of the largest size's mean status fit in a Plan status of 1 MiB (the aim) and of
 * 1.5 MiB (etcd's default request limit, which also holds the rest of the Plan), for each
 * build and for Forklift's types: (limit - plan-level bytes) / bytes per VM.
 */
function fitTable(builds) {
  const rows = [];
  const row = (who, perVM, planLevel) => [
    who,
    Math.round(perVM),
    Math.floor((MiB - planLevel) / perVM),
    Math.floor((1.5 * MiB - planLevel) / perVM),
  ];
  let last;
  for (const [build, { points }] of builds) {
    last = points.at(-1).sized.parts;
    rows.push(row(build, last.vm, last.planLevel));
  }
  rows.push(row('Forklift, same pipeline', last.forklift, last.planLevel));
  rows.push(row('Forklift, vSphere', last.forkliftVSphere, last.planLevel));
  return {
    columns: ['status of', 'B/VM', 'VMs in 1 MiB', 'VMs in 1.5 MiB'],
    rows,
    caption: `From the sizing round of the largest size (${disks} disks per VM): the VMs a Plan status holds under the 1 MiB aim and under etcd's default 1.5 MiB request limit, at the bytes per VM of each build and of Forklift's types for the same VMs (the Plan's spec and metadata take some of the 1.5 MiB too).`,
  };
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
    const partsRow = (build, x) => [n, build, ...PARTS.map((k) => Math.round(x.parts[k]))];
    if (baseline) {
      const baseSized = await child(n, true, true);
      rows.push(rowOf(n, 'baseline', baseRuns, baseSized));
      before.points.push({ n, runs: baseRuns, sized: baseSized });
      parts.push(partsRow('baseline', baseSized));
    }
    rows.push(rowOf(n, 'this commit', runs, sized));
    ours.points.push({ n, runs, sized });
    parts.push(partsRow('this commit', sized));
    console.error(`scale: ${n} VMs done`, rows.at(-1));
  }
  const statusParts = {
    columns: [
      'VMs',
      'build',
      'B/VM status',
      'B/VM steps',
      'B/VM tasks',
      'B/VM conditions',
      'B plan-level',
      'B/VM Forklift, same pipeline',
      'B/VM Forklift, vSphere',
    ],
    rows: parts,
    caption: `Where the Plan status's bytes go once the plan has succeeded (${disks} disks per VM): a VM's status in JSON, of which its pipeline steps without their tasks, the steps' tasks (one per disk) and the VM's conditions; the plan-level rest (plan conditions, migration history); and what Forklift's Go types (omitempty as tagged) write for the same VM: with the same pipeline (plus \`"luks":{}\`, a struct omitempty never drops), and migrated from vSphere (plus its ImageConversion step and \`disksCopied\`), with the same disk names and timestamps (bench/scale-forklift.mjs). From the sizing round of each size${baseline ? '; baseline: the build in BASELINE_DIST' : ''}.`,
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
  const fit = fitTable([...(baseline ? [['baseline', before]] : []), ['this commit', ours]]);
  return { tables: { scale, statusParts, fit }, curves };
}

if (process.argv[2] !== undefined && /^\d+$/.test(process.argv[2])) {
  await round(10, false, process.argv[4]); // warm-up (JIT), not reported
  const [n, mode, baseline] = process.argv.slice(2);
  const figures = await round(Number(n), mode === 'sizes', baseline);
  process.stdout.write(JSON.stringify(figures));
}
