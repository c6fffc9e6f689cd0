//! forklift-api's admission webhooks for one API group: where each is served and for what.

import { PLURALS, VERSION } from '@ctrlkit/plan-migration';
import {
  type AdmissionWebhook,
  type AdmissionWebhookOptions,
  mutatingWebhookFor,
  validatingWebhookFor,
} from '@ctrlkit/runtime/webhook';
import type { ForkliftApiContext, ForkliftKind } from './forklift-api-client.js';
import { hookAdmitter } from './hook-admitter.js';
import { migrationAdmitter } from './migration-admitter.js';
import { planAdmitter } from './plan-admitter.js';
import { planMutator } from './plan-mutator.js';
import { providerAdmitter, providerMutator } from './provider-webhooks.js';

/** How long the apiserver waits for forklift-api's webhooks: 30 s, as Forklift's configurations. */
export const FORKLIFT_API_TIMEOUT_SECONDS = 30;

/** Forklift's paths of the webhooks (`webhooks.PlanValidatePath`, …); `/hook-validate` is ctrlkit's. */
export const FORKLIFT_API_PATHS = {
  planValidate: '/plan-validate',
  planMutate: '/plan-mutate',
  providerValidate: '/provider-validate',
  providerMutate: '/provider-mutate',
  migrationValidate: '/migration-validate',
  hookValidate: '/hook-validate',
} as const;

/**
 * The webhooks forklift-api serves for `context.apiGroup`, each for CREATE and UPDATE with
 * failurePolicy `Fail`, matchPolicy `Equivalent` and {@link FORKLIFT_API_TIMEOUT_SECONDS}, as
 * Forklift's configurations: the Plan, Provider, Migration and Hook admitters (validating),
 * and the Plan and Provider mutators (mutating). Named `<plural>.<group>`.
 */
export function forkliftApiWebhooks(context: ForkliftApiContext): AdmissionWebhook[] {
  const on = (kind: ForkliftKind, path: string): AdmissionWebhookOptions => ({
    name: `${PLURALS[kind]}.${context.apiGroup}`,
    group: context.apiGroup,
    versions: [VERSION],
    kind,
    resource: PLURALS[kind],
    path,
    operations: ['CREATE', 'UPDATE'],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    timeoutSeconds: FORKLIFT_API_TIMEOUT_SECONDS,
  });
  const paths = FORKLIFT_API_PATHS;
  return [
    validatingWebhookFor(planAdmitter(context), on('Plan', paths.planValidate)),
    validatingWebhookFor(providerAdmitter(), on('Provider', paths.providerValidate)),
    validatingWebhookFor(migrationAdmitter(context), on('Migration', paths.migrationValidate)),
    validatingWebhookFor(hookAdmitter(), on('Hook', paths.hookValidate)),
    mutatingWebhookFor(planMutator(context), on('Plan', paths.planMutate)),
    mutatingWebhookFor(providerMutator(), on('Provider', paths.providerMutate)),
  ];
}
