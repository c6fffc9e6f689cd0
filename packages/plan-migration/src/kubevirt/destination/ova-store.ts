//! The NFS PersistentVolume and claim through which an OVA source's conversion pod reads the appliance.

import type { VMStatus } from '../../api/plan.js';
import type { Provider } from '../../api/provider.js';
import { labelSelector } from '../../labels.js';
import { ovaStorePV, ovaStorePVC } from '../conversion-pod.js';
import type { DestinationContext } from './context.js';

/** Ensures the OVA store PV and PVC (found by their labels); returns the claim's name. */
export async function ensureOvaStore(c: DestinationContext, vm: VMStatus): Promise<string> {
  const source = c.options.source as Provider;
  const pv = ovaStorePV(c.plan, source, c.options.migrationName ?? '', vm.id ?? '');
  const pvs = await c.core.listPersistentVolume({
    labelSelector: labelSelector(pv.metadata?.labels ?? {}),
  });
  let pvName = pvs.items[0]?.metadata?.name;
  if (pvName === undefined) {
    c.wrote();
    pvName = (await c.core.createPersistentVolume({ body: pv })).metadata?.name ?? '';
  }
  const pvc = ovaStorePVC(c.plan, source, c.options.migrationUID, vm.id ?? '', pvName);
  const pvcs = await c.core.listNamespacedPersistentVolumeClaim({
    namespace: c.ns,
    labelSelector: labelSelector(pvc.metadata?.labels ?? {}),
  });
  const found = pvcs.items[0]?.metadata?.name;
  if (found !== undefined) return found;
  c.wrote();
  const created = await c.core.createNamespacedPersistentVolumeClaim({
    namespace: c.ns,
    body: pvc,
  });
  return created.metadata?.name ?? '';
}
