// The plan benchmark: plans of 10, 100 and 200 VMs run to Succeeded on the simulated source
// provider, driven reconcile by reconcile the way the controller drives them (the same
// reconcilePlan, MigrationRunner and scheduler), on a fake clock stepped by the requeue delay.
//
// Run: pnpm --filter @ctrlkit/plan-migration bench   (build first: pnpm --filter @ctrlkit/plan-migration build)
// Knobs (environment): SIZES (comma list, "10,100,200"), DISKS (per VM, 2), DISK_MIB (2048),
// RATE (MiB/s per disk, 1024), REPEATS (3; the table shows medians).
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
import { performance } from 'node:perf_hooks';
import { FakeClock } from '@ctrlkit/workqueue/testing';
import { BaseMigrator } from '../dist/index.js';
import { PlanHarness } from '../dist/testing.js';

const sizes = (process.env.SIZES ?? '10,100,200').split(',').map(Number);
const disks = Number(process.env.DISKS ?? 2);
const diskMiB = Number(process.env.DISK_MIB ?? 2048);
const rate = Number(process.env.RATE ?? 1024);
const repeats = Number(process.env.REPEATS ?? 3);

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
console.log(
  `plans on the simulated source: ${disks} disks × ${diskMiB} MiB per VM at ${rate} MiB/s, medians of ${repeats}`,
);
console.log(
  '| VMs | passes | passes/VM | status writes | status writes/VM phase | destination writes/VM | ms total | ms/VM |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.n} | ${r.passes} | ${fmt(r.passes / r.n)} | ${r.statusWrites} | ${fmt(r.statusWrites / (r.n * r.phases), 3)} | ${fmt(r.destinationWrites / r.n)} | ${fmt(r.ms, 0)} | ${fmt(r.ms / r.n, 3)} |`,
  );
}
const xs = rows.map((r) => r.n);
const ys = rows.map((r) => r.ms / r.n);
const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
const my = ys.reduce((a, b) => a + b, 0) / ys.length;
const slope =
  xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) /
  xs.reduce((a, x) => a + (x - mx) ** 2, 0);
console.log(
  `slope of ms/VM against VMs: ${slope.toExponential(2)} ms per VM per added VM (flat ≈ 0; mean ${fmt(my, 3)} ms/VM)`,
);
console.log(
  'Forklift: one Plan status update per reconcile pass (plus the Migration mirror), the same pattern as here.',
);
