/**
 * `@ctrlkit/runtime/client`: the way to the API server, and the writes a controller makes
 * through it.
 *
 * - **Finding the cluster**: {@link loadKubeConfig} (flag, `KUBECONFIG`, in-cluster,
 *   `~/.kube/config`, as controller-runtime's `config.GetConfig`), {@link KubeConfigError}.
 * - **Clients**: {@link ApiClientFactory} hands out client-node API clients that share one
 *   rate limit (`qps`, `burst`), send your User-Agent and are counted in `rest_client_*`
 *   ({@link PrometheusRestClientMetrics}); a `Manager` owns one
 *   (`manager.makeApiClient`). {@link RestClient} is the JSON client underneath (LIST, WATCH,
 *   `requestJson`); its API errors are {@link ApiStatusError}.
 * - **Writes**: {@link apply} and {@link applyStatus} (server-side apply),
 *   {@link patchStatus} (a merge patch of `/status`), {@link retryOnConflict} and
 *   {@link onError} (client-go's `retry`), finalizers: {@link finalizer} (kube-rs' flow),
 *   {@link addFinalizer}, {@link removeFinalizer}, {@link containsFinalizer}. Each takes a
 *   {@link ClientSource} (a `KubeConfig` or a `KubernetesObjectApi`) or an
 *   {@link ObjectWriter} of your own.
 *
 * A first program:
 * ```ts
 * import { apply, DEFAULT_RETRY, loadKubeConfig, patchStatus, retryOnConflict } from '@ctrlkit/runtime/client';
 *
 * const kubeConfig = loadKubeConfig({ kubeconfig: flags.kubeconfig });
 * await apply(kubeConfig, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data },
 *   { fieldManager: 'my-controller', force: true });
 * await retryOnConflict(DEFAULT_RETRY, async () => {
 *   const current = await read();
 *   return patchStatus(kubeConfig, current, { phase: 'Ready' }, { optimisticLock: true });
 * });
 * ```
 *
 * @packageDocumentation
 */

export { type ApplyOptions, apply, applyStatus } from './apply/apply.js';
export type {
  ClientSource,
  JsonPatchOperation,
  ObjectWriter,
  PatchRequest,
} from './apply/object-writer.js';
export { type PatchStatusOptions, patchStatus } from './apply/patch-status.js';
export {
  ApiClientFactory,
  type ApiClientFactoryOptions,
  DEFAULT_BURST,
  DEFAULT_QPS,
  DEFAULT_USER_AGENT,
} from './client/api-client-factory.js';
export { KubeConfigError, type KubeConfigErrorReason } from './client/kube-config-error.js';
export {
  type LoadKubeConfigOptions,
  loadKubeConfig,
  SERVICE_ACCOUNT_DIR,
} from './client/load-kube-config.js';
export { type FinalizerEvent, finalizer } from './finalizer/finalizer.js';
export { FinalizerError, type FinalizerErrorReason } from './finalizer/finalizer-error.js';
export { addFinalizer, containsFinalizer, removeFinalizer } from './finalizer/finalizers.js';
export { type ApiStatus, ApiStatusError } from './informers/errors/api-status-error.js';
export {
  DEFAULT_LIST_IDLE_TIMEOUT_MS,
  IDLE_CONNECTION_TIMEOUT_MS,
  RestClient,
  type RestClientOptions,
  type RestMethod,
  type RestRequestInfo,
} from './informers/rest-client.js';
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
