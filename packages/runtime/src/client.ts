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

import * as client from '@ctrlkit/client';

/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type ApiStatus = client.ApiStatus;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const ApiStatusError: typeof client.ApiStatusError = client.ApiStatusError;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type ApiStatusError = client.ApiStatusError;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const Client: typeof client.Client = client.Client;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type Client = client.Client;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type ClientOptions = client.ClientOptions;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type ClientRequestInfo = client.ClientRequestInfo;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type ClientSource = client.ClientSource;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const CONTENT_TYPE_JSON: typeof client.CONTENT_TYPE_JSON = client.CONTENT_TYPE_JSON;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const CONTENT_TYPE_PROTOBUF: typeof client.CONTENT_TYPE_PROTOBUF =
  client.CONTENT_TYPE_PROTOBUF;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type ContentType = client.ContentType;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const createClient: typeof client.createClient = client.createClient;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const DEFAULT_BURST: typeof client.DEFAULT_BURST = client.DEFAULT_BURST;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const DEFAULT_LIST_IDLE_TIMEOUT_MS: typeof client.DEFAULT_LIST_IDLE_TIMEOUT_MS =
  client.DEFAULT_LIST_IDLE_TIMEOUT_MS;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const DEFAULT_MAX_RETRIES: typeof client.DEFAULT_MAX_RETRIES = client.DEFAULT_MAX_RETRIES;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const DEFAULT_QPS: typeof client.DEFAULT_QPS = client.DEFAULT_QPS;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type DeleteOptions = client.DeleteOptions;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const defaultUserAgent: typeof client.defaultUserAgent = client.defaultUserAgent;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const formatMicroTime: typeof client.formatMicroTime = client.formatMicroTime;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const formatTime: typeof client.formatTime = client.formatTime;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const HTTP2_PING_TIMEOUT_MS: typeof client.HTTP2_PING_TIMEOUT_MS =
  client.HTTP2_PING_TIMEOUT_MS;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const HTTP2_READ_IDLE_TIMEOUT_MS: typeof client.HTTP2_READ_IDLE_TIMEOUT_MS =
  client.HTTP2_READ_IDLE_TIMEOUT_MS;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const IDLE_CONNECTION_TIMEOUT_MS: typeof client.IDLE_CONNECTION_TIMEOUT_MS =
  client.IDLE_CONNECTION_TIMEOUT_MS;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type KubeConfigData = client.KubeConfigData;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const KubeConfigError: typeof client.KubeConfigError = client.KubeConfigError;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type KubeConfigError = client.KubeConfigError;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type KubeConfigErrorReason = client.KubeConfigErrorReason;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type KubeConfigLike = client.KubeConfigLike;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type KubeObject = client.KubeObject;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type ListOptions = client.ListOptions;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const LoadedKubeConfig: typeof client.LoadedKubeConfig = client.LoadedKubeConfig;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type LoadedKubeConfig = client.LoadedKubeConfig;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type LoadKubeConfigOptions = client.LoadKubeConfigOptions;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const loadKubeConfig: typeof client.loadKubeConfig = client.loadKubeConfig;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type ObjectOptions = client.ObjectOptions;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type PatchOptions = client.PatchOptions;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type PatchType = client.PatchType;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type ProgramInfo = client.ProgramInfo;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type Query = client.Query;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type RawWatchEvent = client.RawWatchEvent;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type RequestOptions = client.RequestOptions;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type RequestVerb = client.RequestVerb;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type RestClientMetrics = client.RestClientMetrics;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type RestMethod = client.RestMethod;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type RestResponse = client.RestResponse;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const SERVICE_ACCOUNT_DIR: typeof client.SERVICE_ACCOUNT_DIR = client.SERVICE_ACCOUNT_DIR;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const TlsVerificationError: typeof client.TlsVerificationError = client.TlsVerificationError;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type TlsVerificationError = client.TlsVerificationError;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export const toClient: typeof client.toClient = client.toClient;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type Wire<T> = client.Wire<T>;
/** `@ctrlkit/client`'s, re-exported. @deprecated Use `@ctrlkit/client`. */
export type WriteOptions = client.WriteOptions;
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
