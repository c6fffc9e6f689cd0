/**
 * `@ctrlkit/runtime/client`: the writes a controller makes through the one client, and
 * (deprecated) the client itself.
 *
 * @deprecated The client moved to a package of its own: use `@ctrlkit/client`
 * (`pnpm add @ctrlkit/client`). Its names are re-exported here, each `@deprecated`, for the
 * 0.x line. What stays here is the runtime's own: {@link apply} and {@link applyStatus}
 * (server-side apply), {@link patchStatus} (a merge patch of `/status`),
 * {@link retryOnConflict} and {@link onError} (client-go's `retry`), finalizers
 * ({@link finalizer}, {@link addFinalizer}, {@link removeFinalizer},
 * {@link containsFinalizer}) and {@link PrometheusRestClientMetrics} (the client's
 * `rest_client_*` metrics on a prom-client registry). Each writer takes a client's
 * `ClientSource` or an {@link ObjectWriter} of your own.
 *
 * ```ts
 * import { createClient, loadKubeConfig } from '@ctrlkit/client';
 * import { apply, DEFAULT_RETRY, patchStatus, retryOnConflict } from '@ctrlkit/runtime/client';
 *
 * const client = createClient(loadKubeConfig({ kubeconfig: flags.kubeconfig }), {
 *   program: { name: 'my-controller', version: '1.0.0' },
 * });
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

export {
  /** @deprecated use @ctrlkit/client */
  type ApiStatus,
  /** @deprecated use @ctrlkit/client */
  ApiStatusError,
  /** @deprecated use @ctrlkit/client */
  Client,
  /** @deprecated use @ctrlkit/client */
  type ClientOptions,
  /** @deprecated use @ctrlkit/client */
  type ClientRequestInfo,
  /** @deprecated use @ctrlkit/client */
  type ClientSource,
  /** @deprecated use @ctrlkit/client */
  CONTENT_TYPE_JSON,
  /** @deprecated use @ctrlkit/client */
  CONTENT_TYPE_PROTOBUF,
  /** @deprecated use @ctrlkit/client */
  type ContentType,
  /** @deprecated use @ctrlkit/client */
  createClient,
  /** @deprecated use @ctrlkit/client */
  DEFAULT_BURST,
  /** @deprecated use @ctrlkit/client */
  DEFAULT_LIST_IDLE_TIMEOUT_MS,
  /** @deprecated use @ctrlkit/client */
  DEFAULT_MAX_RETRIES,
  /** @deprecated use @ctrlkit/client */
  DEFAULT_QPS,
  /** @deprecated use @ctrlkit/client */
  type DeleteOptions,
  /** @deprecated use @ctrlkit/client */
  defaultUserAgent,
  /** @deprecated use @ctrlkit/client */
  formatMicroTime,
  /** @deprecated use @ctrlkit/client */
  formatTime,
  /** @deprecated use @ctrlkit/client */
  HTTP2_PING_TIMEOUT_MS,
  /** @deprecated use @ctrlkit/client */
  HTTP2_READ_IDLE_TIMEOUT_MS,
  /** @deprecated use @ctrlkit/client */
  IDLE_CONNECTION_TIMEOUT_MS,
  /** @deprecated use @ctrlkit/client */
  type KubeConfigData,
  /** @deprecated use @ctrlkit/client */
  KubeConfigError,
  /** @deprecated use @ctrlkit/client */
  type KubeConfigErrorReason,
  /** @deprecated use @ctrlkit/client */
  type KubeConfigLike,
  /** @deprecated use @ctrlkit/client */
  type KubeObject,
  /** @deprecated use @ctrlkit/client */
  type ListOptions,
  /** @deprecated use @ctrlkit/client */
  LoadedKubeConfig,
  /** @deprecated use @ctrlkit/client */
  type LoadKubeConfigOptions,
  /** @deprecated use @ctrlkit/client */
  loadKubeConfig,
  /** @deprecated use @ctrlkit/client */
  type ObjectOptions,
  /** @deprecated use @ctrlkit/client */
  type PatchOptions,
  /** @deprecated use @ctrlkit/client */
  type PatchType,
  /** @deprecated use @ctrlkit/client */
  type ProgramInfo,
  /** @deprecated use @ctrlkit/client */
  type Query,
  /** @deprecated use @ctrlkit/client */
  type RawWatchEvent,
  /** @deprecated use @ctrlkit/client */
  type RequestOptions,
  /** @deprecated use @ctrlkit/client */
  type RequestVerb,
  /** @deprecated use @ctrlkit/client */
  type RestClientMetrics,
  /** @deprecated use @ctrlkit/client */
  type RestMethod,
  /** @deprecated use @ctrlkit/client */
  type RestResponse,
  /** @deprecated use @ctrlkit/client */
  SERVICE_ACCOUNT_DIR,
  /** @deprecated use @ctrlkit/client */
  TlsVerificationError,
  /** @deprecated use @ctrlkit/client */
  toClient,
  /** @deprecated use @ctrlkit/client */
  type Wire,
  /** @deprecated use @ctrlkit/client */
  type WriteOptions,
} from '@ctrlkit/client';
export { type ApplyOptions, apply, applyStatus } from './apply/apply.js';
export type { JsonPatchOperation, ObjectWriter, PatchRequest } from './apply/object-writer.js';
export { type PatchStatusOptions, patchStatus } from './apply/patch-status.js';
export { type FinalizerEvent, finalizer } from './finalizer/finalizer.js';
export { FinalizerError, type FinalizerErrorReason } from './finalizer/finalizer-error.js';
export { addFinalizer, containsFinalizer, removeFinalizer } from './finalizer/finalizers.js';
export {
  PrometheusRestClientMetrics,
  REST_CLIENT_DURATION_BUCKETS,
} from './metrics/rest-client-metrics.js';
export {
  DEFAULT_BACKOFF,
  DEFAULT_RETRY,
  onError,
  type RetryBackoff,
  type RetryOptions,
  retryOnConflict,
} from './retry/retry-on-conflict.js';
