//! Forklift's plan admitter: the user may read both providers (and create VMs in the target namespace, read the source VMs), and the plan can work.

import { errorMessage } from '@ctrlkit/core';
import { isWarm, type Plan, type Provider, type StorageMap } from '@ctrlkit/plan-migration/api';
import { isHost } from '@ctrlkit/plan-migration/controllers';
import type { AdmissionRequest, CustomValidator } from '@ctrlkit/runtime/webhook';
import { denied } from './denied.js';
import { type ForkliftApiContext, readForklift } from './forklift-api-client.js';
import { permitUser } from './permit-user.js';
import {
  luksProblem,
  type StorageClassLike,
  staticStorageProblem,
  warmMigrationProblem,
} from './plan-rules.js';
import { permitVmAccess } from './vm-access.js';

/**
 * Validates Plans on create and update, in Forklift's order: the source provider is read
 * (an archived plan whose source is gone is allowed) and the user must be allowed to get it;
 * the same for the destination; when the destination is the host cluster the user must be
 * allowed to create VirtualMachines in `spec.targetNamespace`, and when the source is, to get
 * every VM of the plan (see `permitUser`); then no static storage class for a cold migration
 * from a non-vSphere source into the host cluster, no warm migration from a provider type
 * that has none, no LUKS disks from a provider type that cannot open them. Every refusal is
 * code 400 with Forklift's message. A Plan being deleted is not checked: its finalizer must
 * be removable whatever became of its providers.
 */
export function planAdmitter(context: ForkliftApiContext): CustomValidator<Plan> {
  return {
    validateCreate: (plan, { request }) => admitPlan(context, plan, request),
    validateUpdate: (_old, plan, { request }) => admitPlan(context, plan, request),
    validateDelete: () => undefined,
  };
}

async function admitPlan(
  context: ForkliftApiContext,
  plan: Plan,
  request: AdmissionRequest,
): Promise<undefined> {
  if (plan.metadata.deletionTimestamp) return undefined;
  const namespace = plan.metadata.namespace || request.namespace || '';
  const { source: sourceRef, destination: destinationRef } = plan.spec.provider;
  let source: Provider;
  try {
    source = await readForklift<Provider>(
      context,
      'Provider',
      sourceRef.namespace || namespace,
      sourceRef.name,
    );
  } catch (error) {
    if (plan.spec.archived) return undefined;
    throw error;
  }
  await permitProvider(context, request, source);
  const destination = await readForklift<Provider>(
    context,
    'Provider',
    destinationRef.namespace || namespace,
    destinationRef.name,
  );
  await permitProvider(context, request, destination);
  await permitVmAccess(context.client, request, plan, source, destination);
  await validateStorage(context, plan, namespace, source, destination);
  const problem =
    warmMigrationProblem(isWarm(plan), source.spec.type) ?? luksProblem(plan, source.spec.type);
  if (problem !== undefined) throw denied(problem);
  return undefined;
}

function permitProvider(
  context: ForkliftApiContext,
  request: AdmissionRequest,
  provider: Provider,
): Promise<void> {
  return permitUser(context.client, request, {
    group: context.apiGroup,
    resource: 'providers',
    verb: 'get',
    namespace: provider.metadata.namespace ?? '',
    name: provider.metadata.name ?? '',
  });
}

/** Forklift's validateStorage: only a cold migration from a non-vSphere source into the host cluster is checked. */
async function validateStorage(
  context: ForkliftApiContext,
  plan: Plan,
  namespace: string,
  source: Provider,
  destination: Provider,
): Promise<void> {
  if (isWarm(plan) || source.spec.type === 'vsphere' || !isHost(destination)) return;
  const ref = plan.spec.map.storage;
  if (ref === undefined) return;
  let storageClasses: readonly StorageClassLike[];
  try {
    storageClasses = (await context.client.list('storage.k8s.io/v1/storageclasses'))
      .items as StorageClassLike[];
  } catch (error) {
    throw denied(`cannot list the storage classes: ${errorMessage(error)}`);
  }
  const storageMap = await readForklift<StorageMap>(
    context,
    'StorageMap',
    ref.namespace || namespace,
    ref.name,
  );
  const problem = staticStorageProblem(storageMap, storageClasses);
  if (problem !== undefined) throw denied(problem);
}
