//! Names a Kubernetes resource (group, version, plural) and builds its REST paths.

import { InvalidArgumentError } from '@ctrlkit/core';

/**
 * A resource as the REST API names it: `{ group: '', version: 'v1', resource: 'configmaps' }`
 * for core types, `{ group: 'example.com', version: 'v1', resource: 'widgets' }` for a custom
 * resource. `resource` is the plural, lower-case name.
 */
export interface GroupVersionResource {
  /** The API group; `''` for the core group (`/api/v1`). */
  readonly group: string;
  readonly version: string;
  /** The plural resource name, e.g. `configmaps`, `nodes`, `widgets`. */
  readonly resource: string;
}

/**
 * A resource: a {@link GroupVersionResource}, or a string: `'configmaps'` (core v1),
 * `'v1/configmaps'`, or `'apps/v1/deployments'`.
 */
export type ResourceLike = GroupVersionResource | string;

const dnsLabel = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** Validates and normalises a resource; throws `InvalidArgumentError` naming `field`. */
export function toGroupVersionResource(
  resource: ResourceLike,
  field = 'resource',
): GroupVersionResource {
  let gvr: GroupVersionResource;
  if (typeof resource === 'string') {
    const parts = resource.split('/');
    if (parts.length === 1) gvr = { group: '', version: 'v1', resource: parts[0] as string };
    else if (parts.length === 2)
      gvr = { group: '', version: parts[0] as string, resource: parts[1] as string };
    else if (parts.length === 3)
      gvr = {
        group: parts[0] as string,
        version: parts[1] as string,
        resource: parts[2] as string,
      };
    else
      throw new InvalidArgumentError(
        field,
        `expected 'plural', 'version/plural' or 'group/version/plural', got ${JSON.stringify(resource)}`,
      );
  } else if (typeof resource === 'object' && resource !== null) {
    gvr = { group: resource.group ?? '', version: resource.version, resource: resource.resource };
  } else {
    throw new InvalidArgumentError(
      field,
      `must be a string or { group, version, resource }, got ${String(resource)}`,
    );
  }
  if (typeof gvr.group !== 'string' || (gvr.group !== '' && !dnsLabel.test(gvr.group))) {
    throw new InvalidArgumentError(
      `${field}.group`,
      `must be '' or a DNS name, got ${JSON.stringify(gvr.group)}`,
    );
  }
  if (typeof gvr.version !== 'string' || !/^[a-z0-9]+$/.test(gvr.version)) {
    throw new InvalidArgumentError(
      `${field}.version`,
      `must be a version like 'v1', got ${JSON.stringify(gvr.version)}`,
    );
  }
  if (typeof gvr.resource !== 'string' || !dnsLabel.test(gvr.resource)) {
    throw new InvalidArgumentError(
      `${field}.resource`,
      `must be a lower-case plural name like 'configmaps', got ${JSON.stringify(gvr.resource)}`,
    );
  }
  return gvr;
}

/** `group/version/resource` (core: `v1/configmaps`), for logs and cache keys. */
export function formatGroupVersionResource(gvr: GroupVersionResource): string {
  return gvr.group === ''
    ? `${gvr.version}/${gvr.resource}`
    : `${gvr.group}/${gvr.version}/${gvr.resource}`;
}

/** The collection path: `/api/v1/namespaces/ns/configmaps` or `/apis/g/v/widgets`. */
export function collectionPath(gvr: GroupVersionResource, namespace: string | undefined): string {
  const root = gvr.group === '' ? `/api/${gvr.version}` : `/apis/${gvr.group}/${gvr.version}`;
  return namespace
    ? `${root}/namespaces/${encodeURIComponent(namespace)}/${gvr.resource}`
    : `${root}/${gvr.resource}`;
}
