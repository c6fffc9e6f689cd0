//! Forklift's plan mutator: the transfer network from the destination provider's default, and the populator-labels annotation on create.

import { errorMessage, isNotFound } from '@ctrlkit/core';
import type { Plan, Provider } from '@ctrlkit/plan-migration/api';
import { isHost } from '@ctrlkit/plan-migration/controllers';
import type { CustomDefaulter } from '@ctrlkit/runtime/webhook';
import { denied } from './denied.js';
import { type ForkliftApiContext, readForklift } from './forklift-api-client.js';

/** The annotation a new Plan gets, `True` (Forklift's `AnnPopulatorLabels`): its volume populators label their PVCs. */
export const POPULATOR_LABELS_ANNOTATION = 'populatorLabels';
/** A destination Provider's annotation naming the default transfer network: `namespace/name`, or `name` in the target namespace. */
export const DEFAULT_TRANSFER_NETWORK_ANNOTATION = 'forklift.konveyor.io/defaultTransferNetwork';
/** Where Multus' NetworkAttachmentDefinitions are served. */
export const NETWORK_ATTACHMENT_DEFINITIONS = 'k8s.cni.cncf.io/v1/network-attachment-definitions';

/**
 * Defaults Plans as Forklift's plan mutator. On create, the annotation
 * {@link POPULATOR_LABELS_ANNOTATION}: `True` unless set. When `spec.transferNetwork` is
 * unset and the destination Provider carries {@link DEFAULT_TRANSFER_NETWORK_ANNOTATION}, the
 * plan gets that network if its NetworkAttachmentDefinition exists (a missing one leaves the
 * plan alone). The destination must be readable (else code 400, as Forklift). Forklift also
 * looks the network up in a remote destination cluster; this webhook reads the host cluster
 * only, and leaves a plan to a remote destination without a default. A Plan being deleted is
 * left alone.
 */
export function planMutator(context: ForkliftApiContext): CustomDefaulter<Plan> {
  return {
    async default(plan, { request }) {
      // A Plan being deleted gets no defaults: its finalizer must be removable whatever became of its providers.
      if (plan.metadata.deletionTimestamp) return;
      const namespace = plan.metadata.namespace || request.namespace || '';
      if (plan.spec.transferNetwork === undefined) {
        const network = await defaultTransferNetwork(context, plan, namespace);
        if (network !== undefined) plan.spec.transferNetwork = network;
      }
      if (request.operation === 'CREATE') {
        plan.metadata.annotations ??= {};
        plan.metadata.annotations[POPULATOR_LABELS_ANNOTATION] ??= 'True';
      }
    },
  };
}

async function defaultTransferNetwork(
  context: ForkliftApiContext,
  plan: Plan,
  namespace: string,
): Promise<{ namespace: string; name: string } | undefined> {
  const ref = plan.spec.provider.destination;
  const destination = await readForklift<Provider>(
    context,
    'Provider',
    ref.namespace || namespace,
    ref.name,
  );
  const network = destination.metadata.annotations?.[DEFAULT_TRANSFER_NETWORK_ANNOTATION];
  if (!network || !isHost(destination)) return undefined;
  const key = networkKey(network, plan.spec.targetNamespace);
  try {
    await context.client.get(NETWORK_ATTACHMENT_DEFINITIONS, key.name, {
      namespace: key.namespace,
    });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw denied(errorMessage(error) || `cannot read the network ${key.namespace}/${key.name}`);
  }
  return key;
}

/** `namespace/name`, or `name` in `defaultNamespace` (Forklift's GetNetworkNameAndNamespace). */
function networkKey(
  network: string,
  defaultNamespace: string,
): { namespace: string; name: string } {
  const slash = network.indexOf('/');
  if (slash < 0) return { namespace: defaultNamespace, name: network };
  return { namespace: network.slice(0, slash), name: network.slice(slash + 1) };
}
