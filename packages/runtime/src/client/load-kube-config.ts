//! Finds the cluster to talk to as controller-runtime's `config.GetConfig` does.

import { existsSync, readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeConfigError } from './kube-config-error.js';

/** Where a pod's service account credentials are mounted. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Options of {@link loadKubeConfig}. */
export interface LoadKubeConfigOptions {
  /** A kubeconfig file, e.g. the `--kubeconfig` flag. Default: none. */
  kubeconfig?: string;
  /** The context to use instead of the file's current context. Default: the current context. */
  context?: string;
  /** The environment to read `KUBECONFIG` and `KUBERNETES_SERVICE_HOST`/`_PORT` from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The home directory holding `.kube/config`. Default `os.homedir()`. */
  homeDir?: string;
  /** Where the in-cluster token and CA are. Default {@link SERVICE_ACCOUNT_DIR}. */
  serviceAccountDir?: string;
}

/**
 * Loads the client configuration from the first of, in order: the `kubeconfig` option
 * (the `--kubeconfig` flag), the `KUBECONFIG` environment variable (files joined by the
 * path delimiter, merged as client-go does: the first file naming an entry wins), the in-cluster service account (when `KUBERNETES_SERVICE_HOST`
 * and `KUBERNETES_SERVICE_PORT` are set and the token is mounted), `~/.kube/config`.
 * Throws {@link KubeConfigError} (`NotFound`) when none is there, (`Unreadable`) when the
 * chosen source cannot be read, (`NoSuchContext`) for an unknown `context`.
 */
export function loadKubeConfig(options: LoadKubeConfigOptions = {}): KubeConfig {
  const env = options.env ?? process.env;
  const kubeConfig = new KubeConfig();
  const fromFiles = (files: string[], source: string) => {
    try {
      kubeConfig.loadFromFile(files[0] as string);
      for (const file of files.slice(1)) {
        const more = new KubeConfig();
        more.loadFromFile(file);
        // client-go's merge: the first file that names a cluster, user or context wins.
        for (const cluster of more.clusters) {
          if (kubeConfig.getCluster(cluster.name) === null) kubeConfig.addCluster(cluster);
        }
        for (const user of more.users) {
          if (kubeConfig.getUser(user.name) === null) kubeConfig.addUser(user);
        }
        for (const context of more.contexts) {
          if (kubeConfig.getContextObject(context.name) === null) kubeConfig.addContext(context);
        }
      }
    } catch (cause) {
      throw new KubeConfigError('Unreadable', `cannot read the kubeconfig from ${source}`, cause);
    }
  };
  const fromEnv = (env.KUBECONFIG ?? '')
    .split(process.platform === 'win32' ? ';' : ':')
    .filter(Boolean);
  const serviceAccountDir = options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const home = join(options.homeDir ?? homedir(), '.kube', 'config');
  if (options.kubeconfig !== undefined && options.kubeconfig !== '') {
    fromFiles([options.kubeconfig], `--kubeconfig ${options.kubeconfig}`);
  } else if (fromEnv.length > 0) {
    fromFiles(fromEnv, `KUBECONFIG=${env.KUBECONFIG}`);
  } else if (
    env.KUBERNETES_SERVICE_HOST &&
    env.KUBERNETES_SERVICE_PORT &&
    existsSync(join(serviceAccountDir, 'token'))
  ) {
    loadInCluster(
      kubeConfig,
      env.KUBERNETES_SERVICE_HOST,
      env.KUBERNETES_SERVICE_PORT,
      serviceAccountDir,
    );
  } else if (existsSync(home)) {
    fromFiles([home], home);
  } else {
    throw new KubeConfigError(
      'NotFound',
      `no kubeconfig: give --kubeconfig, set KUBECONFIG, run in a pod with a service account, or create ${home}`,
    );
  }
  if (options.context !== undefined) {
    if (kubeConfig.getContextObject(options.context) === null) {
      throw new KubeConfigError(
        'NoSuchContext',
        `the kubeconfig has no context ${options.context}`,
      );
    }
    kubeConfig.setCurrentContext(options.context);
  }
  return kubeConfig;
}

/** The in-cluster config (client-go's `rest.InClusterConfig`); the token file is re-read as it rotates. */
function loadInCluster(kubeConfig: KubeConfig, host: string, port: string, dir: string): void {
  const server = isIPv6(host) ? `https://[${host}]:${port}` : `https://${host}:${port}`;
  const namespaceFile = join(dir, 'namespace');
  const namespace = existsSync(namespaceFile)
    ? readFileSync(namespaceFile, 'utf8').trim()
    : undefined;
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'inCluster', server, caFile: join(dir, 'ca.crt'), skipTLSVerify: false }],
    users: [
      {
        name: 'inClusterUser',
        authProvider: { name: 'tokenFile', config: { tokenFile: join(dir, 'token') } },
      },
    ],
    contexts: [
      { name: 'inClusterContext', cluster: 'inCluster', user: 'inClusterUser', namespace },
    ],
    currentContext: 'inClusterContext',
  });
}
