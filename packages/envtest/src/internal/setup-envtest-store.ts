//! Finds binaries that controller-runtime's setup-envtest already downloaded on this machine.

import { homedir } from 'node:os';
import { join } from 'node:path';
import { goOs, platformSuffix } from './platform.js';

/**
 * setup-envtest's store roots on this OS, in the order it would use them:
 * `$XDG_DATA_HOME/kubebuilder-envtest` then `~/.local/share/kubebuilder-envtest` (Linux and
 * others; both, so a store made before `XDG_DATA_HOME` was set is found too), and
 * `~/Library/Application Support/io.kubebuilder.envtest` (macOS). Without `HOME` in `env`,
 * only the `XDG_DATA_HOME` one. (`setup-envtest --bin-dir` stores elsewhere: point
 * `KUBEBUILDER_ASSETS` there.)
 */
export function setupEnvtestStoreRoots(env: NodeJS.ProcessEnv, os = goOs()): string[] {
  const home = env.HOME || (env === process.env ? homedir() : undefined);
  const roots: string[] = [];
  if (os === 'darwin') {
    if (home) roots.push(join(home, 'Library', 'Application Support', 'io.kubebuilder.envtest'));
    return roots;
  }
  if (env.XDG_DATA_HOME) roots.push(join(env.XDG_DATA_HOME, 'kubebuilder-envtest'));
  if (home) roots.push(join(home, '.local', 'share', 'kubebuilder-envtest'));
  return [...new Set(roots)];
}

/** The folders where setup-envtest keeps `version` for this platform: `<root>/k8s/<version>-<os>-<arch>`. */
export function setupEnvtestFolders(version: string, env: NodeJS.ProcessEnv): string[] {
  return setupEnvtestStoreRoots(env).map((root) =>
    join(root, 'k8s', `${version}-${platformSuffix()}`),
  );
}
