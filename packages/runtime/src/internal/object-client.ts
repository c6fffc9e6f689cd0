//! Writes to any object by apiVersion and kind: client-node's KubernetesObjectApi, plus JSON patches and subresources.

import {
  type Configuration,
  HttpMethod,
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
} from '@kubernetes/client-node';
import type {
  ClientSource,
  JsonPatchOperation,
  ObjectWriter,
  PatchRequest,
} from '../apply/object-writer.js';

/**
 * client-node's `KubernetesObjectApi` (URL from API discovery, its serializer, its auth
 * and middleware), with JSON patch bodies and the status subresource, which it lacks.
 */
class ObjectClient extends KubernetesObjectApi implements ObjectWriter {
  static fromKubeConfig(kubeConfig: KubeConfig): ObjectClient {
    const client = kubeConfig.makeApiClient(ObjectClient);
    client.setDefaultNamespace(kubeConfig);
    return client;
  }

  async jsonPatch<T extends KubernetesObject>(
    target: KubernetesObject,
    operations: readonly JsonPatchOperation[],
    request: PatchRequest = {},
  ): Promise<T> {
    const path = await this.specUriPath(header(target), 'patch');
    const context = this.configuration.baseServer.makeRequestContext(
      request.subresource === undefined ? path : `${path}/${request.subresource}`,
      HttpMethod.PATCH,
    );
    context.setHeaderParam('Accept', 'application/json, */*;q=0.8');
    context.setHeaderParam('Content-Type', PatchStrategy.JsonPatch);
    if (request.fieldManager !== undefined)
      context.setQueryParam('fieldManager', request.fieldManager);
    if (request.dryRun !== undefined) context.setQueryParam('dryRun', request.dryRun);
    context.setBody(JSON.stringify(operations));
    return this.requestPromise<T>(context);
  }

  patchObject<T extends KubernetesObject>(
    body: KubernetesObject,
    strategy: PatchStrategy,
    request: PatchRequest = {},
  ): Promise<T> {
    const base = this.configuration.baseServer;
    // Same request as KubernetesObjectApi.patch, on the subresource's URL when asked.
    const config: Configuration | undefined =
      request.subresource === undefined
        ? undefined
        : {
            ...this.configuration,
            baseServer: {
              makeRequestContext: (endpoint, method) =>
                base.makeRequestContext(`${endpoint}/${request.subresource}`, method),
            },
          };
    return this.patch<T>(
      { ...body, metadata: { ...body.metadata, managedFields: undefined } } as T,
      undefined,
      request.dryRun,
      request.fieldManager,
      request.force,
      strategy,
      config,
    );
  }
}

/** Only what identifies an object (discovery and URL building mutate what they are given). */
function header(target: KubernetesObject): KubernetesObject {
  return {
    apiVersion: target.apiVersion,
    kind: target.kind,
    metadata: { name: target.metadata?.name, namespace: target.metadata?.namespace },
  } as KubernetesObject;
}

const clients = new WeakMap<object, ObjectWriter>();

/**
 * The writer for `source`, one per KubeConfig or KubernetesObjectApi (discovery is
 * cached per client). A `KubernetesObjectApi` keeps its configuration: its middleware
 * (rate limits, metrics) applies to these writes too. An object that already has
 * `jsonPatch` and `patchObject` (a test double) is used as it is.
 */
export function objectClient(source: ClientSource | ObjectWriter): ObjectWriter {
  if (isWriter(source)) return source;
  let client = clients.get(source);
  if (client === undefined) {
    client =
      source instanceof KubernetesObjectApi
        ? // biome-ignore lint/complexity/useLiteralKeys: `configuration` is protected; element access reads the caller's own
          new ObjectClient(source['configuration'])
        : ObjectClient.fromKubeConfig(source);
    clients.set(source, client);
  }
  return client;
}

function isWriter(source: unknown): source is ObjectWriter {
  return (
    !(source instanceof KubernetesObjectApi) &&
    typeof (source as ObjectWriter).jsonPatch === 'function' &&
    typeof (source as ObjectWriter).patchObject === 'function'
  );
}
