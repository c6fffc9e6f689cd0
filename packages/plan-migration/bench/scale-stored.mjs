// The scale bench's stored-size check: settled Plan statuses of the scale sizes (and one with
// a disk more per VM) written to a real kube-apiserver and etcd (@ctrlkit/envtest) with the
// status PUT the controller makes, then read back: the bytes the apiserver stores and serves,
// or the error it answers (etcd refuses a request over its --max-request-bytes, 1.5 MiB).
import { FakeClock } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs, startControlPlane } from '@ctrlkit/envtest';
import { API_VERSION, forkliftCrds, GROUP, PLURALS, VERSION } from '@ctrlkit/plan-migration';
import { PlanHarness } from '@ctrlkit/plan-migration/testing';
import { CustomObjectsApi } from '@kubernetes/client-node';

/** The settled Plan of `n` VMs with `disks` disks each, run in memory on a fake clock. */
async function settledPlan(n, disks, diskMiB, rate) {
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const h = new PlanHarness({ clock, vms: n, disks, diskMiB, copyRateMiBPerSecond: rate });
  h.addMigration();
  for (;;) {
    const reQ = await h.reconcile();
    if (reQ === 0) return h.plan;
    clock.step(reQ);
  }
}

/**
 * Writes the settled status of each size (`disks` per VM, and the largest size once more with
 * a disk more) to a real apiserver; returns the stored table.
 */
export async function storedTable(sizes, disks, diskMiB, rate) {
  const points = [...sizes.map((n) => [n, disks]), [Math.max(...sizes), disks + 1]];
  const plane = await startControlPlane({});
  const rows = [];
  try {
    await installCRDs(plane.kubeConfig, [...forkliftCrds]);
    const custom = plane.kubeConfig.makeApiClient(CustomObjectsApi);
    const namespace = await createTestNamespace(plane.kubeConfig, 'scale-');
    const at = { group: GROUP, version: VERSION, plural: PLURALS.Plan, namespace };
    for (const [n, d] of points) {
      const plan = await settledPlan(n, d, diskMiB, rate);
      const name = `plan-${n}-${d}`;
      const spec = { ...plan.spec, targetNamespace: namespace };
      const body = { apiVersion: API_VERSION, kind: 'Plan', metadata: { name }, spec };
      const created = await custom.createNamespacedCustomObject({ ...at, body });
      const sent = { ...created, status: plan.status };
      const sentKiB = (Buffer.byteLength(JSON.stringify(sent)) / 1024).toFixed(1);
      try {
        await custom.replaceNamespacedCustomObjectStatus({ ...at, name, body: sent });
        const stored = await custom.getNamespacedCustomObject({ ...at, name });
        rows.push([
          n,
          d,
          sentKiB,
          (Buffer.byteLength(JSON.stringify(stored)) / 1024).toFixed(1),
          'stored',
        ]);
      } catch (e) {
        const message = JSON.parse(e.body ?? '{}').message ?? String(e);
        rows.push([n, d, sentKiB, '-', `refused: ${e.code} ${message}`]);
      }
    }
  } finally {
    await plane.stop();
  }
  return {
    columns: ['VMs', 'disks/VM', 'Plan KiB sent', 'Plan KiB stored (GET)', 'apiserver'],
    rows,
    caption:
      'The settled Plan of each size PUT to its status subresource on a real kube-apiserver and etcd (envtest, default limits), then read back.',
  };
}
