//! The REST paths and query strings of the client's requests.

import { InvalidArgumentError } from '@ctrlkit/core';
import { collectionPath, type GroupVersionResource } from './resource.js';

/** Query parameters; undefined and empty values are left out. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** `path?query`, without the empty parameters. */
export function withQuery(path: string, query: Query): string {
  let params: URLSearchParams | undefined;
  for (const name of Object.keys(query)) {
    const value = query[name];
    if (value === undefined || value === '') continue;
    // Made for the first parameter only: most writes have none.
    params ??= new URLSearchParams();
    params.set(name, String(value));
  }
  return params === undefined ? path : `${path}?${params.toString()}`;
}

/** `/api/v1/namespaces/ns/pods/name[/subresource]`; throws `InvalidArgumentError` for an empty name. */
export function objectPath(
  gvr: GroupVersionResource,
  namespace: string | undefined,
  name: string,
  subresource?: string,
): string {
  if (typeof name !== 'string' || name === '')
    throw new InvalidArgumentError('name', 'must be a non-empty string');
  if (namespace !== undefined && typeof namespace !== 'string')
    throw new InvalidArgumentError('namespace', 'must be a string');
  const path = `${collectionPath(gvr, namespace || undefined)}/${encodeURIComponent(name)}`;
  return subresource === undefined ? path : `${path}/${subresource}`;
}
