/**
 * `@ctrlkit/client`: the one way to the API server, usable alone.
 *
 * - **Finding the cluster**: {@link loadKubeConfig} (flag, `KUBECONFIG`, in-cluster,
 *   `~/.kube/config`, as controller-runtime's `config.GetConfig`) gives a
 *   {@link LoadedKubeConfig} (client-node's kubeconfig handling without its generated API
 *   classes); {@link KubeConfigError}.
 * - **The client**: {@link Client}, one per kubeconfig ({@link createClient}). One
 *   kept-alive connection pool per TLS configuration (HTTP/2 with pings for watches), the
 *   `qps`/`burst` token bucket on every request but a WATCH (LISTs included), a `User-Agent`
 *   of `<program>/<version> (<os>/<arch>) ctrlkit/<version>` ({@link defaultUserAgent}),
 *   `rest_client_*` metrics through a {@link RestClientMetrics} of your choice,
 *   Retry-After on 429 and 5xx, idle timeouts and one retry on a connection the server
 *   closed. Options: {@link ClientOptions}. Helpers that make requests take a
 *   {@link ClientSource}.
 * - **Errors**: {@link ApiStatusError} (any answer with an error status; read it with
 *   `@ctrlkit/core`'s `statusCode`, `isNotFound`, `isConflict`, …),
 *   {@link ResourceExpiredError} (410 Gone), {@link WatchStreamError} (a broken watch
 *   stream), {@link TlsVerificationError} (a server certificate that is not trusted), all
 *   {@link InformerError}s, whose base is core's `CtrlkitError`.
 * - **Resources and paths**: {@link GroupVersionResource} and {@link ResourceLike}
 *   (`'configmaps'`, `'apps/v1/deployments'`), {@link toGroupVersionResource},
 *   {@link collectionPath}, {@link objectPath}, {@link withQuery}.
 * - **Wire types**: what the client returns is an object as JSON gives it, typed
 *   {@link Wire}`<V1Pod>` (client-node's model with `Date` fields as the RFC 3339 strings
 *   they are), whether it came as JSON or, for built-in types, as protobuf (the default
 *   {@link ClientOptions.contentType}, {@link CONTENT_TYPE_PROTOBUF}, as client-go's typed
 *   clients); {@link formatTime} and {@link formatMicroTime} write such strings.
 * - **Streaming** lives in `@ctrlkit/client/streaming`: a container's log, exec and attach
 *   over WebSocket, port-forward.
 *
 * A first program (load the kubeconfig, list pods, watch them, patch one):
 * ```ts
 * import {
 *   collectionPath,
 *   createClient,
 *   loadKubeConfig,
 *   toGroupVersionResource,
 * } from '@ctrlkit/client';
 * import type { V1Pod } from '@kubernetes/client-node';
 *
 * // The kubeconfig as kubectl finds it (KUBECONFIG, in-cluster, ~/.kube/config), and its namespace.
 * const kubeConfig = loadKubeConfig();
 * const namespace =
 *   kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace ?? 'default';
 * const client = createClient(kubeConfig, { program: { name: 'pods', version: '1.0.0' } });
 *
 * // List the pods of the namespace.
 * const pods = await client.list<V1Pod>('pods', { namespace });
 * for (const pod of pods.items) console.log(pod.metadata?.name, pod.status?.phase);
 *
 * // Watch them from where the list left off, for five seconds.
 * const stop = AbortSignal.timeout(5_000);
 * const path = collectionPath(toGroupVersionResource('pods'), namespace);
 * await client
 *   .watch(
 *     path,
 *     { resourceVersion: pods.metadata?.resourceVersion, allowWatchBookmarks: true },
 *     'application/json',
 *     (event) => console.log(event.type, (event.object as V1Pod).metadata?.name),
 *     stop,
 *   )
 *   .catch((error: unknown) => {
 *     if (!stop.aborted) throw error;
 *   });
 *
 * // Patch one (a merge patch; `type: 'apply'` with a fieldManager for server-side apply).
 * const name = pods.items[0]?.metadata?.name;
 * if (name !== undefined) {
 *   const patched = await client.patch<V1Pod>(
 *     'pods',
 *     name,
 *     { metadata: { labels: { seen: 'true' } } },
 *     { namespace },
 *   );
 *   console.log(patched.metadata?.labels);
 * }
 * client.close();
 * ```
 *
 * @packageDocumentation
 */

export { Client, createClient } from './client.js';
export { type ClientOptions, DEFAULT_LIST_IDLE_TIMEOUT_MS } from './client-options.js';
export { type ClientSource, toClient } from './client-source.js';
export { IDLE_CONNECTION_TIMEOUT_MS } from './connection-pool.js';
export {
  CONTENT_TYPE_JSON,
  CONTENT_TYPE_PROTOBUF,
  type ContentType,
} from './content-type.js';
export { type ApiStatus, ApiStatusError } from './errors/api-status-error.js';
export { InformerError, type InformerErrorReason } from './errors/informer-error.js';
export { ResourceExpiredError } from './errors/resource-expired-error.js';
export { WatchStreamError } from './errors/watch-stream-error.js';
export { HTTP2_PING_TIMEOUT_MS, HTTP2_READ_IDLE_TIMEOUT_MS } from './http2-sessions.js';
export { KubeConfigError, type KubeConfigErrorReason } from './kube-config-error.js';
export {
  type LoadKubeConfigOptions,
  loadKubeConfig,
  SERVICE_ACCOUNT_DIR,
} from './load-kube-config.js';
export { type KubeConfigData, LoadedKubeConfig } from './loaded-kube-config.js';
export { objectPath, type Query, withQuery } from './paths.js';
export { peekProtobufContinueToken } from './protobuf-list.js';
export type {
  DeleteOptions,
  ListOptions,
  ObjectOptions,
  PatchOptions,
  PatchType,
  RequestOptions,
  RestResponse,
  WriteOptions,
} from './request-options.js';
export {
  collectionPath,
  formatGroupVersionResource,
  type GroupVersionResource,
  type ResourceLike,
  toGroupVersionResource,
} from './resource.js';
export type { RestClientMetrics } from './rest-client-metrics.js';
export { DEFAULT_BURST, DEFAULT_MAX_RETRIES, DEFAULT_QPS } from './throttle.js';
export { TlsVerificationError } from './tls-verification-error.js';
export type {
  ClientRequestInfo,
  KubeConfigLike,
  RequestVerb,
  RestMethod,
} from './transport.js';
export { defaultUserAgent, type ProgramInfo } from './user-agent.js';
export type { RawWatchEvent } from './watch-stream.js';
export {
  formatMicroTime,
  formatTime,
  type KubeObject,
  type ObjectList,
  type Wire,
} from './wire.js';
