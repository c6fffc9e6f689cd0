/**
 * `@ctrlkit/envtest`: a real local Kubernetes control plane (etcd and kube-apiserver on
 * 127.0.0.1; kube-scheduler and kube-controller-manager on request) for tests and demos,
 * controller-runtime's `envtest` for TypeScript.
 *
 * - **The control plane**: {@link startControlPlane} ({@link ControlPlaneOptions}) gives a
 *   {@link ControlPlane}: its admin `kubeConfig`, user kubeconfigs, restarts (faults) and
 *   `stop`.
 * - **In it**: {@link createTestNamespace}, {@link installCRDs} (waits until Established),
 *   {@link dryRunManifests} (a `deploy/` folder, server-side dry run), {@link installWebhooks}
 *   (webhook configurations and CRD conversions calling a local webhook server, with a CA and
 *   serving certificate made for it: controller-runtime's `WebhookInstallOptions`).
 * - **Components** on request (`components` option): kube-scheduler and
 *   kube-controller-manager ({@link COMPONENTS}), each as its own user; `crds` installed
 *   before they start.
 * - **Audit log** (`auditPolicy` option): who did what, as the apiserver saw it, in
 *   `plane.auditLogPath`, read with {@link readAuditLog}.
 * - **Binaries**: found or fetched on their own (`KUBEBUILDER_ASSETS`, setup-envtest's store,
 *   the cache, a download of the release archives, or a one-time build with Go);
 *   `@ctrlkit/envtest/binaries` does it for a program that manages them itself. Certificates
 *   from the control plane's CA: {@link createCertificate}.
 * - **Errors**: {@link EnvtestError} and its subclasses ({@link BinariesMissingError},
 *   {@link NotReadyError}, {@link ProcessExitedError}, …).
 *
 * With vitest, one control plane per run: `@ctrlkit/envtest/global-setup` (the global setup)
 * and `@ctrlkit/envtest/vitest` (`testKubeConfig()` in a test, `envtestGlobalSetup(options)`).
 * `InvalidArgumentError`, `Logger` and `noopLogger` are `@ctrlkit/core`'s, re-exported.
 *
 * A first program:
 * ```ts
 * import { createTestNamespace, startControlPlane } from '@ctrlkit/envtest';
 *
 * const plane = await startControlPlane(); // etcd + kube-apiserver, ready in a few seconds
 * try {
 *   const namespace = await createTestNamespace(plane.kubeConfig);
 *   // … run the controller against plane.kubeConfig
 * } finally {
 *   await plane.stop(); // no process, no temp folder left
 * }
 * ```
 *
 * @packageDocumentation
 */

export { InvalidArgumentError, type Logger, noopLogger } from '@ctrlkit/core';
export {
  type CertificateRequest,
  type CertificateUsage,
  createCertificate,
  type IssuedCertificate,
} from '@ctrlkit/core/certificates';
export {
  type AuditEvent,
  type AuditLogRead,
  type AuditPolicy,
  type AuditPolicyRule,
  readAuditLog,
} from './audit.js';
export {
  COMPONENTS,
  type ComponentName,
  type RunningComponent,
  resolveComponents,
} from './components.js';
export {
  type ControlPlane,
  type StartupTimings,
  startControlPlane,
  type UserKubeConfig,
} from './control-plane.js';
export { DEFAULT_CRD_TIMEOUT_MS, type InstallCRDsOptions, installCRDs } from './crds.js';
export { ArchiveInvalidError } from './errors/archive-invalid-error.js';
export { BinariesMissingError } from './errors/binaries-missing-error.js';
export { BuildFailedError } from './errors/build-failed-error.js';
export { ChecksumMismatchError } from './errors/checksum-mismatch-error.js';
export { EnvtestError, type EnvtestErrorReason } from './errors/envtest-error.js';
export { NotReadyError } from './errors/not-ready-error.js';
export { PortInUseError } from './errors/port-in-use-error.js';
export { ProcessExitedError } from './errors/process-exited-error.js';
export { UnknownComponentError } from './errors/unknown-component-error.js';
export { freePort } from './free-port.js';
export { stderrLogger } from './logger.js';
export { type DryRunResult, dryRunManifests } from './manifests.js';
export { createTestNamespace, DEFAULT_TEST_NAMESPACE_PREFIX } from './namespace.js';
export {
  type BinaryOptions,
  type ControlPlaneOptions,
  DEFAULT_ETCD_COMPACTION_INTERVAL_MS,
  DEFAULT_START_TIMEOUT_MS,
  DEFAULT_STOP_TIMEOUT_MS,
} from './options.js';
export { ETCD_VERSION, KUBERNETES_VERSION } from './versions.js';
export {
  DEFAULT_WEBHOOK_READY_TIMEOUT_MS,
  type InstalledWebhooks,
  installWebhooks,
  type WebhookInstallOptions,
} from './webhooks.js';
