//! The VM permissions of a plan, shared by the plan and migration admitters: create VMs in the target namespace (host destination), get the source VMs (host source).

import type { Plan, Provider } from '@ctrlkit/plan-migration/api';
import { isHost } from '@ctrlkit/plan-migration/controllers';
import type { AdmissionRequest } from '@ctrlkit/runtime/webhook';
import type { ForkliftApiClient } from './forklift-api-client.js';
import { permitUser } from './permit-user.js';

/** KubeVirt's API group, of the VirtualMachines a plan creates (and reads, from a host source). */
export const KUBEVIRT_GROUP = 'kubevirt.io';

/**
 * Forklift's VM checks: when `destination` is the host cluster, the user of `request` must
 * be allowed to create VirtualMachines in the plan's target namespace; when `source` is, to
 * get each VM of the plan in its namespace. Throws the first refusal (see `permitUser`).
 */
export async function permitVmAccess(
  client: ForkliftApiClient,
  request: AdmissionRequest,
  plan: Plan,
  source: Provider,
  destination: Provider,
): Promise<void> {
  if (isHost(destination)) {
    await permitUser(client, request, {
      group: KUBEVIRT_GROUP,
      resource: 'virtualmachines',
      verb: 'create',
      namespace: plan.spec.targetNamespace,
      name: '',
    });
  }
  if (!isHost(source)) return;
  for (const vm of plan.spec.vms) {
    await permitUser(client, request, {
      group: KUBEVIRT_GROUP,
      resource: 'virtualmachines',
      verb: 'get',
      namespace: vm.namespace ?? '',
      name: vm.name ?? '',
    });
  }
}
