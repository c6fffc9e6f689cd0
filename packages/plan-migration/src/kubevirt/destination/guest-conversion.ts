//! The guest conversion (virt-v2v) pod of a VM: created once its disks exist, read for progress.

import type { ConversionStatus } from '../../adapter.js';
import type { VMStatus } from '../../api/plan.js';
import { labelSelector } from '../../labels.js';
import {
  conversionLabels,
  conversionPod,
  DEFAULT_VIRT_V2V_IMAGE,
  parseDiskTransfers,
} from '../conversion-pod.js';
import { diskPVCs } from '../pvcs.js';
import { type DestinationContext, listPvcs } from './context.js';
import { ensureOvaStore } from './ova-store.js';

/** Creates the VM's conversion pod unless one (not being deleted) exists; true once it does. */
export async function ensureConversionPod(c: DestinationContext, vm: VMStatus): Promise<boolean> {
  const builder = c.options.builder;
  if (builder?.podEnvironment === undefined) {
    throw new Error(
      `VM ${vm.id}: the source builder does not give the conversion pod's environment (podEnvironment)`,
    );
  }
  const labels = conversionLabels(c.plan, c.options.migrationUID, vm.id ?? '');
  const existing = await c.core.listNamespacedPod({
    namespace: c.ns,
    labelSelector: labelSelector(labels),
  });
  if (existing.items.some((p) => p.metadata?.deletionTimestamp === undefined)) return true;
  const environment = await builder.podEnvironment(vm);
  const pvcs = diskPVCs(await listPvcs(c, vm), vm.id ?? '', c.options.migrationUID);
  const pod = conversionPod({
    plan: c.plan,
    migrationUID: c.options.migrationUID,
    vmID: vm.id ?? '',
    diskClaims: pvcs.map((p) => p.metadata?.name ?? ''),
    environment,
    image: c.options.virtV2vImage ?? DEFAULT_VIRT_V2V_IMAGE,
    ...(c.options.source?.spec.type === 'ova' && { ovaStoreClaim: await ensureOvaStore(c, vm) }),
  });
  c.wrote();
  const created = await c.core.createNamespacedPod({ namespace: c.ns, body: pod });
  c.log.info({ vm: vm.id, pod: created.metadata?.name }, 'created guest conversion pod');
  return true;
}

/** The conversion pod's phase, its failure message, and while it runs each disk's copy progress. */
export async function conversionStatus(
  c: DestinationContext,
  vm: VMStatus,
): Promise<ConversionStatus> {
  const list = await c.core.listNamespacedPod({
    namespace: c.ns,
    labelSelector: labelSelector(conversionLabels(c.plan, c.options.migrationUID, vm.id ?? '')),
  });
  const pod = list.items.find((p) => p.metadata?.deletionTimestamp === undefined);
  if (pod === undefined) return { phase: 'NotFound', disks: new Map() };
  const phase = (pod.status?.phase ?? 'Pending') as ConversionStatus['phase'];
  const status: ConversionStatus = { phase, disks: new Map() };
  const message = pod.status?.message;
  if (phase === 'Failed' && message) status.message = message;
  if (phase === 'Running' && pod.status?.podIP) {
    // one-client: not the API server (the conversion pod's own metrics endpoint, by pod IP)
    const fetchMetrics = c.options.fetchMetrics ?? (async (u) => (await fetch(u)).text());
    try {
      status.disks = parseDiskTransfers(
        await fetchMetrics(`http://${pod.status.podIP}:2112/metrics`),
      );
    } catch (error) {
      // Missing progress is not fatal (upstream logs it).
      c.log.info({ vm: vm.id, err: error }, 'could not read conversion progress');
    }
  }
  return status;
}
