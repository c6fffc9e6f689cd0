/**
 * `@ctrlkit/envtest/vitest`: one control plane per vitest run, shared by a package's test
 * files.
 *
 * - {@link envtestGlobalSetup}: a vitest global setup that starts a control plane before the
 *   run (with your `ControlPlaneOptions`, from the root) and stops it at teardown; the one with
 *   default options is `@ctrlkit/envtest/global-setup`.
 * - {@link testKubeConfig} (and {@link testKubeconfigPath}): the admin `KubeConfig` of this
 *   run's control plane, in a test. The path travels in {@link KUBECONFIG_ENV} and is
 *   `provide`d as {@link PROVIDE_KEY}.
 *
 * A first test:
 * ```ts
 * // vitest.config.ts: test: { globalSetup: ['@ctrlkit/envtest/global-setup'] }
 * import { testKubeConfig } from '@ctrlkit/envtest/vitest';
 *
 * const kubeConfig = testKubeConfig();
 * ```
 *
 * @packageDocumentation
 */

export {
  AUDIT_LOG_ENV,
  envtestGlobalSetup,
  KUBECONFIG_ENV,
  PROVIDE_KEY,
  type ProvidingProject,
  testAuditLogPath,
  testKubeConfig,
  testKubeconfigPath,
} from './vitest-integration.js';
