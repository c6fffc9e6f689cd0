//! The per-VM Secret (`isDV=true`, the CDI importer's credentials) and ConfigMap.

import type { VMStatus } from '../../api/plan.js';
import { labelSelector } from '../../labels.js';
import { LABEL_IS_DV, vmLabels } from '../labels.js';
import type { DestinationContext } from './context.js';

/** Ensures the VM's Secret and ConfigMap (found by its labels); returns their names. */
export async function ensureSecretAndConfigMap(
  c: DestinationContext,
  vm: VMStatus,
): Promise<{ secret: string; configMap: string }> {
  const labels = vmLabels(c.plan, c.options.migrationUID, vm.id ?? '');
  const generateName = `${c.plan.metadata.name}-${vm.id}-`.toLowerCase();
  const secretLabels = { ...labels, [LABEL_IS_DV]: 'true' };
  const secrets = await c.core.listNamespacedSecret({
    namespace: c.ns,
    labelSelector: labelSelector(secretLabels),
  });
  let secret = secrets.items[0]?.metadata?.name;
  if (secret === undefined) {
    c.wrote();
    const created = await c.core.createNamespacedSecret({
      namespace: c.ns,
      body: { metadata: { generateName, namespace: c.ns, labels: secretLabels } },
    });
    secret = created.metadata?.name ?? '';
  }
  const maps = await c.core.listNamespacedConfigMap({
    namespace: c.ns,
    labelSelector: labelSelector(labels),
  });
  let configMap = maps.items[0]?.metadata?.name;
  if (configMap === undefined) {
    c.wrote();
    const created = await c.core.createNamespacedConfigMap({
      namespace: c.ns,
      body: { metadata: { generateName, namespace: c.ns, labels } },
    });
    configMap = created.metadata?.name ?? '';
  }
  return { secret, configMap };
}
