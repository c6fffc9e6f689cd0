//! vitest integration: a global setup that runs one control plane per test run, and the kubeconfig of that control plane for tests.

import { KubeConfig } from '@kubernetes/client-node';
import { type ControlPlane, startControlPlane } from './control-plane.js';
import { EnvtestError } from './errors/envtest-error.js';
import type { ControlPlaneOptions } from './options.js';

/** The environment variable through which the global setup hands the kubeconfig path to tests. */
export const KUBECONFIG_ENV = 'CTRLKIT_ENVTEST_KUBECONFIG';
/** The environment variable through which the global setup hands the audit log path (with `auditPolicy`). */
export const AUDIT_LOG_ENV = 'CTRLKIT_ENVTEST_AUDIT_LOG';
/** The key under which the global setup `provide`s the kubeconfig path (`inject(PROVIDE_KEY)`). */
export const PROVIDE_KEY = 'ctrlkitEnvtestKubeconfig';

/** The part of vitest's `TestProject` the global setup uses. */
export interface ProvidingProject {
  provide(key: string, value: unknown): void;
}

/**
 * A vitest global setup function: starts a control plane before the run, hands its
 * kubeconfig path to the tests (environment variable {@link KUBECONFIG_ENV}, and
 * `provide(PROVIDE_KEY, path)`), and its audit log path when `auditPolicy` is set
 * ({@link AUDIT_LOG_ENV}), and stops it at teardown.
 */
export function envtestGlobalSetup(
  options: ControlPlaneOptions = {},
): (project?: ProvidingProject) => Promise<() => Promise<void>> {
  return async (project) => {
    const plane: ControlPlane = await startControlPlane(options);
    process.env[KUBECONFIG_ENV] = plane.kubeconfigPath;
    if (plane.auditLogPath !== undefined) process.env[AUDIT_LOG_ENV] = plane.auditLogPath;
    project?.provide?.(PROVIDE_KEY, plane.kubeconfigPath);
    return async () => {
      delete process.env[KUBECONFIG_ENV];
      delete process.env[AUDIT_LOG_ENV];
      await plane.stop();
    };
  };
}

/** The kubeconfig path the global setup handed over; throws `EnvtestError` (`NotReady`) when there is none. */
export function testKubeconfigPath(): string {
  const path = process.env[KUBECONFIG_ENV];
  if (!path) {
    throw new EnvtestError(
      'NotReady',
      `no control plane for this test run: ${KUBECONFIG_ENV} is not set; add '@ctrlkit/envtest/global-setup' ` +
        'to test.globalSetup in vitest.config.ts',
    );
  }
  return path;
}

/**
 * The audit log path of this test run's control plane (a global setup with `auditPolicy`), or
 * `undefined` when it writes none.
 */
export function testAuditLogPath(): string | undefined {
  return process.env[AUDIT_LOG_ENV] || undefined;
}

/** An admin `KubeConfig` for the control plane of this test run (see `envtestGlobalSetup`). */
export function testKubeConfig(): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(testKubeconfigPath());
  return kubeConfig;
}
