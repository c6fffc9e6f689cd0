//! Finds the resource (plural name, scope) that serves a kind, through API discovery.

import { type ClientSource, type GroupVersionResource, toClient } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';

/** A resource found by {@link discoverResource}. */
export interface DiscoveredResource extends GroupVersionResource {
  readonly kind: string;
  /** True for namespaced resources, false for cluster-scoped ones. */
  readonly namespaced: boolean;
}

interface ApiResourceList {
  resources?: Array<{ name: string; kind: string; namespaced: boolean }>;
}

/**
 * The resource that serves `kind` in `apiVersion` (`'v1'`, `'apps/v1'`,
 * `'example.com/v1'`), read from the apiserver's discovery document
 * (`GET /api/v1` or `/apis/<group>/<version>`): e.g. `('apps/v1', 'Deployment')` gives
 * `{ group: 'apps', version: 'v1', resource: 'deployments', namespaced: true }`.
 *
 * Errors: `InvalidArgumentError` (field `kind`) when the group/version has no such
 * kind; `ApiStatusError` when discovery fails (404 for an unknown group/version).
 */
export async function discoverResource(
  client: ClientSource,
  apiVersion: string,
  kind: string,
  signal?: AbortSignal,
): Promise<DiscoveredResource> {
  if (typeof apiVersion !== 'string' || !/^([a-z0-9.-]+\/)?[a-z0-9]+$/.test(apiVersion)) {
    throw new InvalidArgumentError(
      'apiVersion',
      `expected 'v1' or 'group/version', got ${JSON.stringify(apiVersion)}`,
    );
  }
  if (typeof kind !== 'string' || kind === '')
    throw new InvalidArgumentError('kind', 'must be a non-empty string');
  const rest = toClient(client);
  const slash = apiVersion.indexOf('/');
  const group = slash === -1 ? '' : apiVersion.slice(0, slash);
  const version = slash === -1 ? apiVersion : apiVersion.slice(slash + 1);
  const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const list = (await rest.getJson(path, {}, 'application/json', signal)) as ApiResourceList;
  const found = list.resources?.find((r) => r.kind === kind && !r.name.includes('/'));
  if (found === undefined) {
    throw new InvalidArgumentError('kind', `${apiVersion} serves no kind ${JSON.stringify(kind)}`);
  }
  return { group, version, resource: found.name, kind, namespaced: found.namespaced };
}
