//! A real local Kubernetes control plane (etcd + kube-apiserver, kube-scheduler and kube-controller-manager on request) for tests and demos.

export { InvalidArgumentError, type Logger, noopLogger } from '@ctrlkit/core';
export {
  type AuditEvent,
  type AuditLogRead,
  type AuditPolicy,
  type AuditPolicyRule,
  readAuditLog,
} from './audit.js';
export { type ControlPlaneBinaries, resolveBinaries } from './binaries.js';
export {
  type BuildRecord,
  buildBinaries,
  buildComponentBinaries,
  type ComponentBuildRecord,
  GO_MODULES_DIRECTORY,
  versionedCacheDirectory,
} from './build.js';
export {
  type CertificateRequest,
  type CertificateUsage,
  createCertificate,
  type IssuedCertificate,
} from './certificates.js';
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
export { BinariesMissingError } from './errors/binaries-missing-error.js';
export { BuildFailedError } from './errors/build-failed-error.js';
export { EnvtestError, type EnvtestErrorReason } from './errors/envtest-error.js';
export { NotReadyError } from './errors/not-ready-error.js';
export { PortInUseError } from './errors/port-in-use-error.js';
export { ProcessExitedError } from './errors/process-exited-error.js';
export { UnknownComponentError } from './errors/unknown-component-error.js';
export { stderrLogger } from './logger.js';
export { type DryRunResult, dryRunManifests } from './manifests.js';
export { createTestNamespace, DEFAULT_TEST_NAMESPACE_PREFIX } from './namespace.js';
export {
  type BinaryOptions,
  type ControlPlaneOptions,
  DEFAULT_BUILD_JOBS,
  DEFAULT_ETCD_COMPACTION_INTERVAL_MS,
  DEFAULT_START_TIMEOUT_MS,
  DEFAULT_STOP_TIMEOUT_MS,
  defaultCacheDirectory,
} from './options.js';
export { ETCD_VERSION, KUBERNETES_VERSION } from './versions.js';
