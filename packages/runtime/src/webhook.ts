/**
 * `@ctrlkit/runtime/webhook`: admission and conversion webhooks, controller-runtime's
 * `pkg/webhook` for TypeScript.
 *
 * - **Server**: a {@link WebhookServer} serves the registered webhooks over HTTPS (TLS ≥ 1.2)
 *   with a certificate and key from files, reloaded when they change (controller-runtime's
 *   certwatcher). A `Manager` given it (`webhookServer` option) runs it on every replica and
 *   fails `/readyz` until it listens. Metrics: {@link PrometheusWebhookMetrics}
 *   (`controller_runtime_webhook_*`).
 * - **Admission**: {@link validatingWebhookFor} (a {@link CustomValidator}; refuse by throwing
 *   an {@link AdmissionDeniedError}) and {@link mutatingWebhookFor} (a {@link CustomDefaulter};
 *   the JSON Patch is {@link createJsonPatch} of the object before and after).
 * - **Conversion**: {@link conversionWebhookFor}, hub-and-spoke converters per version;
 *   {@link setConversionData} / {@link takeConversionData} keep what a version cannot hold.
 * - **Configuration**: {@link validatingWebhookConfiguration},
 *   {@link mutatingWebhookConfiguration} and {@link crdConversion} make the objects to apply
 *   from the registered webhooks.
 * - Errors: {@link WebhookError} (`Denied`, `InvalidReview`, `ConversionFailed`,
 *   `CertificateInvalid`, `ListenFailed`, `AlreadyStarted`).
 *
 * A first program:
 * ```ts
 * import { Manager } from '@ctrlkit/runtime/manager';
 * import { AdmissionDeniedError, validatingWebhookFor, WebhookServer } from '@ctrlkit/runtime/webhook';
 *
 * const widgets = { group: 'example.com', versions: ['v1'], kind: 'Widget', resource: 'widgets' };
 * const server = new WebhookServer({ certDir: '/tmp/k8s-webhook-server/serving-certs' });
 * server.register(validatingWebhookFor<{ spec: { size?: number } }>({
 *   validateCreate: (w) => { if (!w.spec.size) throw new AdmissionDeniedError('spec.size is required'); },
 *   validateUpdate: () => [],
 *   validateDelete: () => [],
 * }, { ...widgets, name: 'vwidget.example.com' }));
 * const manager = new Manager({ kubeConfig, webhookServer: server });
 * await manager.start(setupSignalHandler());
 * ```
 *
 * @packageDocumentation
 */

export type {
  AdmissionRequest,
  AdmissionResponse,
  AdmissionReview,
  AdmissionStatus,
} from './webhook/admission-review.js';
export {
  type AdmissionContext,
  type AdmissionOperation,
  type AdmissionWebhook,
  type AdmissionWebhookOptions,
  type CustomDefaulter,
  type CustomValidator,
  DEFAULT_WEBHOOK_TIMEOUT_SECONDS,
  mutatingWebhookFor,
  validatingWebhookFor,
  type Warnings,
} from './webhook/admission-webhook.js';
export { DEFAULT_CERT_POLL_INTERVAL_MS } from './webhook/cert-watcher.js';
export {
  type ConversionWebhook,
  type ConversionWebhookOptions,
  type ConvertibleObject,
  conversionWebhookFor,
  DEFAULT_CONVERSION_PATH,
  DEFAULT_CONVERSION_TIMEOUT_MS,
  type SpokeConverter,
  setConversionData,
  takeConversionData,
} from './webhook/conversion-webhook.js';
export { createJsonPatch } from './webhook/json-patch.js';
export {
  crdConversion,
  mutatingWebhookConfiguration,
  validatingWebhookConfiguration,
  type WebhookClientOptions,
  webhookClientConfig,
} from './webhook/webhook-configuration.js';
export {
  AdmissionDeniedError,
  InvalidReviewError,
  WebhookError,
  type WebhookErrorReason,
} from './webhook/webhook-error.js';
export type { WebhookHandler, WebhookType } from './webhook/webhook-handler.js';
export {
  PrometheusWebhookMetrics,
  WEBHOOK_LATENCY_BUCKETS,
  type WebhookMetrics,
} from './webhook/webhook-metrics.js';
export {
  DEFAULT_CERT_DIR,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_WEBHOOK_PORT,
  WebhookServer,
  type WebhookServerOptions,
} from './webhook/webhook-server.js';
