//! The VirtualMachine's volume names and network interfaces, named by the plan's volume and network name templates as Forklift's builder names them.

import { errorMessage } from '@ctrlkit/core';
import type { InventoryVM } from '../../adapter.js';
import type { VMStatus } from '../../api/plan.js';
import {
  mappedNICs,
  type NameTemplateField,
  nameTemplateOf,
  networkNameTemplateData,
  volumeNameTemplateData,
} from '../../name-template/data.js';
import type { TemplateData } from '../../name-template/execute.js';
import { renderInterfaceName } from '../../name-templates.js';
import type { DestinationContext } from './context.js';

/**
 * Renders the VM's (else the plan's) `field` template with `data`, or returns `fallback`
 * when there is none. As in Forklift, a template that does not render to a DNS-1123 label
 * here gives the default name, with a warning: Plan validation already refused every
 * template that fails on the data shape this call site passes.
 */
function templatedName(
  c: DestinationContext,
  vm: VMStatus,
  field: NameTemplateField,
  data: TemplateData,
  fallback: string,
): string {
  const found = nameTemplateOf(c.plan, vm, field);
  if (found === undefined) return fallback;
  try {
    return renderInterfaceName(found.template, data);
  } catch (error) {
    c.log.warn(
      { vm: vm.id, template: found.path, error: errorMessage(error), name: fallback },
      'name template did not render: using the default name',
    );
    return fallback;
  }
}

/** The name of the VM's volume `index`, mounting PVC `pvcName`: `vol-<index>`, or the volume name template's. */
export function volumeName(
  c: DestinationContext,
  vm: VMStatus,
  pvcName: string,
  index: number,
): string {
  return templatedName(
    c,
    vm,
    'volumeNameTemplate',
    volumeNameTemplateData(pvcName, index),
    `vol-${index}`,
  );
}

/** A KubeVirt interface and network pair. */
export interface VMInterfaces {
  interfaces: Array<Record<string, unknown>>;
  networks: Array<Record<string, unknown>>;
}

/**
 * One interface and network per NIC whose network the NetworkMap maps (to the pod network,
 * masquerade, or a Multus attachment, bridge; `ignored` NICs get none), named `net-<n>`
 * (`n` counting the mapped NICs) or by the network name template, with the NIC's MAC.
 */
export function vmInterfaces(
  c: DestinationContext,
  vm: VMStatus,
  inventoryVM: InventoryVM | undefined,
): VMInterfaces {
  const out: VMInterfaces = { interfaces: [], networks: [] };
  if (inventoryVM === undefined) return out;
  const mapped = mappedNICs(c.options.networkMap?.spec.map ?? [], inventoryVM);
  for (const [index, { nic, destination }] of mapped.entries()) {
    const data = networkNameTemplateData(destination, index);
    const name = templatedName(c, vm, 'networkNameTemplate', data, `net-${index}`);
    const { type, namespace, name: attachment = '' } = destination;
    const multus = type === 'multus';
    out.interfaces.push({
      name,
      model: 'virtio',
      ...(nic.mac !== '' && { macAddress: nic.mac }),
      ...(multus ? { bridge: {} } : { masquerade: {} }),
    });
    out.networks.push({
      name,
      ...(multus
        ? { multus: { networkName: namespace ? `${namespace}/${attachment}` : attachment } }
        : { pod: {} }),
    });
  }
  return out;
}
