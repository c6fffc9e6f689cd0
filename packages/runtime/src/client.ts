/**
 * `@ctrlkit/runtime/client`: the one way to the API server, and the writes a controller
 * makes through it.
 *
 * - **Finding the cluster**: {@link loadKubeConfig} (flag, `KUBECONFIG`, in-cluster,
 *   `~/.kube/config`, as controller-runtime's `config.GetConfig`) gives a
 *   {@link LoadedKubeConfig} (client-node's kubeconfig handling without its generated API
 *   classes); {@link KubeConfigError}.
 * - **The client**: {@link Client}, one per kubeconfig: a `Manager` owns one
 *   (`manager.client`) that its informers, leader election, event recorders and
 *   controllers share; {@link createClient} makes one for a program without a manager.
 *   One kept-alive connection pool, the `qps`/`burst` token bucket on every request but a
 *   WATCH (LISTs included), a `User-Agent` of `<program>/<version> (<os>/<arch>)
 *   ctrlkit/<version>` ({@link defaultUserAgent}), `rest_client_*` metrics
 *   ({@link PrometheusRestClientMetrics}), Retry-After on 429 and 5xx, idle timeouts and
 *   one retry on a connection the server closed. Options: {@link ClientOptions}; errors:
 *   {@link ApiStatusError}, {@link TlsVerificationError} (a server certificate that is not
 *   trusted; `loadKubeConfig`'s `insecureSkipTlsVerify` turns verification off). Helpers that make requests take a {@link ClientSource}.
 * - **Wire types**: what the client returns is an object as JSON gives it, typed
 *   {@link Wire}`<V1Pod>` (client-node's model with `Date` fields as the RFC 3339 strings
 *   they are), whether it came as JSON or, for built-in types, as protobuf (the default
 *   {@link ClientOptions.contentType}, {@link CONTENT_TYPE_PROTOBUF}, as client-go's typed
 *   clients);
 *   {@link formatTime} and {@link formatMicroTime} write such strings; {@link KubeObject}
 *   is a model or wire object.
 * - **Writes**: {@link apply} and {@link applyStatus} (server-side apply),
 *   {@link patchStatus} (a merge patch of `/status`), {@link retryOnConflict} and
 *   {@link onError} (client-go's `retry`), finalizers: {@link finalizer} (kube-rs' flow),
 *   {@link addFinalizer}, {@link removeFinalizer}, {@link containsFinalizer}. Each takes a
 *   {@link ClientSource} or an {@link ObjectWriter} of your own.
 *
 * A first program:
 * ```ts
 * import { apply, createClient, DEFAULT_RETRY, loadKubeConfig, patchStatus, retryOnConflict } from '@ctrlkit/runtime/client';
 * import type { V1ConfigMap } from '@kubernetes/client-node';
 *
 * const client = createClient(loadKubeConfig({ kubeconfig: flags.kubeconfig }), {
 *   program: { name: 'my-controller', version: '1.0.0' },
 * });
 * const cm = await client.get<V1ConfigMap>('configmaps', 'settings', { namespace: 'default' });
 * await apply(client, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data },
 *   { fieldManager: 'my-controller', force: true });
 * await retryOnConflict(DEFAULT_RETRY, async () => {
 *   const current = await read();
 *   return patchStatus(client, current, { phase: 'Ready' }, { optimisticLock: true });
 * });
 * ```
 *
 * @packageDocumentation
 */

export { type ApplyOptions, apply, applyStatus } from './apply/apply.js';
export type { JsonPatchOperation, ObjectWriter, PatchRequest } from './apply/object-writer.js';
export { type PatchStatusOptions, patchStatus } from './apply/patch-status.js';
export { Client, createClient } from './client/client.js';
export { type ClientOptions, DEFAULT_LIST_IDLE_TIMEOUT_MS } from './client/client-options.js';
export { type ClientSource, toClient } from './client/client-source.js';
export { IDLE_CONNECTION_TIMEOUT_MS } from './client/connection-pool.js';
export {
  CONTENT_TYPE_JSON,
  CONTENT_TYPE_PROTOBUF,
  type ContentType,
} from './client/content-type.js';
export { HTTP2_PING_TIMEOUT_MS, HTTP2_READ_IDLE_TIMEOUT_MS } from './client/http2-sessions.js';
export { KubeConfigError, type KubeConfigErrorReason } from './client/kube-config-error.js';
export {
  type LoadKubeConfigOptions,
  loadKubeConfig,
  SERVICE_ACCOUNT_DIR,
} from './client/load-kube-config.js';
export { type KubeConfigData, LoadedKubeConfig } from './client/loaded-kube-config.js';
export type { Query } from './client/paths.js';
export type {
  DeleteOptions,
  ListOptions,
  ObjectOptions,
  PatchOptions,
  PatchType,
  RequestOptions,
  RestResponse,
  WriteOptions,
} from './client/request-options.js';
export { DEFAULT_BURST, DEFAULT_MAX_RETRIES, DEFAULT_QPS } from './client/throttle.js';
export { TlsVerificationError } from './client/tls-verification-error.js';
export type {
  ClientRequestInfo,
  KubeConfigLike,
  RequestVerb,
  RestMethod,
} from './client/transport.js';
export { defaultUserAgent, type ProgramInfo } from './client/user-agent.js';
export type { RawWatchEvent } from './client/watch-stream.js';
export { formatMicroTime, formatTime, type KubeObject, type Wire } from './client/wire.js';
export { type FinalizerEvent, finalizer } from './finalizer/finalizer.js';
export { FinalizerError, type FinalizerErrorReason } from './finalizer/finalizer-error.js';
export { addFinalizer, containsFinalizer, removeFinalizer } from './finalizer/finalizers.js';
export { type ApiStatus, ApiStatusError } from './informers/errors/api-status-error.js';
export {
  PrometheusRestClientMetrics,
  REST_CLIENT_DURATION_BUCKETS,
  type RestClientMetrics,
} from './metrics/rest-client-metrics.js';
export {
  DEFAULT_BACKOFF,
  DEFAULT_RETRY,
  onError,
  type RetryBackoff,
  type RetryOptions,
  retryOnConflict,
} from './retry/retry-on-conflict.js';
