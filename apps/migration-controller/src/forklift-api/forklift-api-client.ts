//! What forklift-api's admitters and mutators read the cluster with: the one client, and the API group served.

import type { Client } from '@ctrlkit/client';
import { errorMessage } from '@ctrlkit/core';
import { PLURALS, VERSION } from '@ctrlkit/plan-migration';
import type { ApiGroup } from '@ctrlkit/plan-migration/api';
import { denied } from './denied.js';

/** The client calls the webhooks make (reads, and SubjectAccessReviews). */
export type ForkliftApiClient = Pick<Client, 'get' | 'list' | 'create'>;

/** What every admitter and mutator is built with. */
export interface ForkliftApiContext {
  /** The one client (a Manager's `client`), as the webhook's ServiceAccount. */
  readonly client: ForkliftApiClient;
  /** The group of the Plans, Providers, maps, Hooks and Migrations served. */
  readonly apiGroup: ApiGroup;
}

/** A forklift kind of the served group. */
export type ForkliftKind = keyof typeof PLURALS;

/**
 * Reads the `kind` object `namespace/name` of the served group. Any error (not found
 * included) becomes the refusal Forklift answers: code 400 with the error's message.
 */
export async function readForklift<T>(
  context: ForkliftApiContext,
  kind: ForkliftKind,
  namespace: string,
  name: string,
): Promise<T> {
  try {
    return (await context.client.get(
      { group: context.apiGroup, version: VERSION, resource: PLURALS[kind] },
      name,
      { namespace },
    )) as T;
  } catch (error) {
    throw denied(readError(kind, namespace, name, error));
  }
}

/** The message of a failed read: the apiserver's (`providers.forklift.ctrlkit.dev "x" not found`). */
function readError(kind: string, namespace: string, name: string, error: unknown): string {
  return errorMessage(error) || `cannot read ${kind} ${namespace}/${name}`;
}
