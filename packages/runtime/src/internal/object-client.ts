//! Writes to any object by apiVersion and kind (found through API discovery): JSON patches, merge patches and server-side apply, of the object or a subresource.

import {
  type Client,
  type ClientSource,
  type KubeObject,
  objectPath,
  toClient,
  type Wire,
  withQuery,
} from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import type { JsonPatchOperation, ObjectWriter, PatchRequest } from '../apply/object-writer.js';
import { type DiscoveredResource, discoverResource } from '../informers/discovery.js';

/** The content type of a JSON merge patch (client-node's `PatchStrategy.MergePatch`). */
export const MERGE_PATCH = 'application/merge-patch+json';
/** The content type of server-side apply (client-node's `PatchStrategy.ServerSideApply`). */
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** The namespace a namespaced object without one is written to, as client-node's `KubernetesObjectApi` does. */
const DEFAULT_NAMESPACE = 'default';

/** The runtime's client, addressing objects by apiVersion and kind (resources discovered once per client). */
class ObjectClient implements ObjectWriter {
  readonly #client: Client;
  readonly #resources = new Map<string, Promise<DiscoveredResource>>();

  constructor(client: Client) {
    this.#client = client;
  }

  async jsonPatch<T extends KubeObject>(
    target: KubeObject,
    operations: readonly JsonPatchOperation[],
    request: PatchRequest = {},
  ): Promise<Wire<T>> {
    return this.#patch<T>(target, operations, 'application/json-patch+json', request);
  }

  async patchObject<T extends KubeObject>(
    body: KubeObject,
    strategy: string,
    request: PatchRequest = {},
  ): Promise<Wire<T>> {
    const sent = { ...body, metadata: { ...body.metadata, managedFields: undefined } };
    return this.#patch<T>(body, sent, strategy, request);
  }

  async #patch<T>(
    target: KubeObject,
    body: unknown,
    contentType: string,
    request: PatchRequest,
  ): Promise<Wire<T>> {
    const { apiVersion, kind } = target;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string')
      throw new InvalidArgumentError('object', 'needs apiVersion and kind');
    const resource = await this.#resource(apiVersion, kind);
    const namespace = resource.namespaced
      ? target.metadata?.namespace || DEFAULT_NAMESPACE
      : undefined;
    const path = objectPath(resource, namespace, target.metadata?.name ?? '', request.subresource);
    const query = {
      fieldManager: request.fieldManager,
      force: request.force === true ? 'true' : undefined,
      dryRun: request.dryRun,
    };
    return this.#client.requestJson<Wire<T>>('PATCH', withQuery(path, query), {
      body,
      contentType,
    });
  }

  #resource(apiVersion: string, kind: string): Promise<DiscoveredResource> {
    const key = `${apiVersion}/${kind}`;
    let found = this.#resources.get(key);
    if (found === undefined) {
      found = discoverResource(this.#client, apiVersion, kind);
      // A failed discovery (an apiserver restart, a CRD not yet served) is tried again next time.
      found.catch(() => this.#resources.delete(key));
      this.#resources.set(key, found);
    }
    return found;
  }
}

const writers = new WeakMap<Client, ObjectWriter>();

/**
 * The writer for `source` (a Client, or a kubeconfig for its default client), one per
 * client (discovery is cached per writer). An object that already has `jsonPatch` and
 * `patchObject` (a test double) is used as it is.
 */
export function objectClient(source: ClientSource | ObjectWriter): ObjectWriter {
  if (isWriter(source)) return source;
  const client = toClient(source);
  let writer = writers.get(client);
  if (writer === undefined) {
    writer = new ObjectClient(client);
    writers.set(client, writer);
  }
  return writer;
}

function isWriter(source: unknown): source is ObjectWriter {
  return (
    typeof (source as ObjectWriter).jsonPatch === 'function' &&
    typeof (source as ObjectWriter).patchObject === 'function'
  );
}
