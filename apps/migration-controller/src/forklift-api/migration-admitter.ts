//! Forklift's migration admitter: the user who starts a migration must hold the VM rights the plan needs.

import type { Migration, Plan, Provider } from '@ctrlkit/plan-migration/api';
import type { AdmissionRequest, CustomValidator } from '@ctrlkit/runtime/webhook';
import { type ForkliftApiContext, readForklift } from './forklift-api-client.js';
import { permitVmAccess } from './vm-access.js';

/**
 * Validates Migrations on create and update: reads the Plan (`spec.plan`) and its providers,
 * then, through SubjectAccessReviews for the requesting user, requires the right to create
 * VirtualMachines in the plan's target namespace when the destination is the host cluster,
 * and to get each of the plan's VMs when the source is. So a user who may create Migrations
 * cannot make the controller create VMs where they could not. Every refusal (a plan or
 * provider that cannot be read included) is code 400 with Forklift's message.
 */
export function migrationAdmitter(context: ForkliftApiContext): CustomValidator<Migration> {
  return {
    validateCreate: (migration, { request }) => admitMigration(context, migration, request),
    validateUpdate: (_old, migration, { request }) => admitMigration(context, migration, request),
    validateDelete: () => undefined,
  };
}

async function admitMigration(
  context: ForkliftApiContext,
  migration: Migration,
  request: AdmissionRequest,
): Promise<undefined> {
  if (migration.metadata.deletionTimestamp) return undefined;
  const namespace = migration.metadata.namespace || request.namespace || '';
  const planRef = migration.spec.plan;
  const plan = await readForklift<Plan>(
    context,
    'Plan',
    planRef.namespace || namespace,
    planRef.name,
  );
  const planNamespace = plan.metadata.namespace ?? '';
  const { source: sourceRef, destination: destinationRef } = plan.spec.provider;
  const destination = await readForklift<Provider>(
    context,
    'Provider',
    destinationRef.namespace || planNamespace,
    destinationRef.name,
  );
  const source = await readForklift<Provider>(
    context,
    'Provider',
    sourceRef.namespace || planNamespace,
    sourceRef.name,
  );
  await permitVmAccess(context.client, request, plan, source, destination);
  return undefined;
}
