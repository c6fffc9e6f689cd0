//! Finds the cluster to talk to as controller-runtime's `config.GetConfig` does.

import { existsSync, readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@ctrlkit/core';
import type { Cluster, Context, User } from '@kubernetes/client-node/dist/config_types.js';
import { KubeConfigError } from './kube-config-error.js';
import { LoadedKubeConfig } from './loaded-kube-config.js';

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
  /**
   * Do not verify the server's certificate (the `--insecure-skip-tls-verify` flag): as
   * kubectl's flag, it overrides the current cluster's `insecure-skip-tls-verify` and drops
   * its CA. For testing only. Default: the kubeconfig's setting (verification on).
   */
  insecureSkipTlsVerify?: boolean;
  /** Told (a warning) when the chosen cluster's certificate will not be verified. Default: none. */
  logger?: Logger;
}

/**
 * Loads the client configuration from the first of, in order: the `kubeconfig` option
 * (the `--kubeconfig` flag), the `KUBECONFIG` environment variable (files joined by the
 * path delimiter, merged as client-go does: the first file naming an entry wins), the in-cluster service account (when `KUBERNETES_SERVICE_HOST`
 * and `KUBERNETES_SERVICE_PORT` are set and the token is mounted), `~/.kube/config`.
 * `insecureSkipTlsVerify` turns the current cluster's certificate verification off (warned
 * to `logger`, as is a kubeconfig that turns it off itself).
 * Throws {@link KubeConfigError} (`NotFound`) when none is there, (`Unreadable`) when the
 * chosen source cannot be read, (`NoSuchContext`) for an unknown `context`.
 * The result is a {@link LoadedKubeConfig}: what the runtime's client and `Manager` take
 * (`toKubeConfig()` gives client-node's `KubeConfig` for code that wants its API classes).
 */
export function loadKubeConfig(options: LoadKubeConfigOptions = {}): LoadedKubeConfig {
  const env = options.env ?? process.env;
  const fromFiles = (files: string[], source: string): LoadedKubeConfig => {
    try {
      const [first, ...more] = files.map((file) => LoadedKubeConfig.fromFile(file));
      const merged = first as LoadedKubeConfig;
      if (more.length === 0) return merged;
      // client-go's merge: the first file that names a cluster, user or context wins.
      const clusters = new Map<string, Cluster>();
      const users = new Map<string, User>();
      const contexts = new Map<string, Context>();
      for (const config of [merged, ...more]) {
        for (const c of config.clusters) if (!clusters.has(c.name)) clusters.set(c.name, c);
        for (const u of config.users) if (!users.has(u.name)) users.set(u.name, u);
        for (const c of config.contexts) if (!contexts.has(c.name)) contexts.set(c.name, c);
      }
      return new LoadedKubeConfig({
        clusters: [...clusters.values()],
        users: [...users.values()],
        contexts: [...contexts.values()],
        currentContext: merged.getCurrentContext(),
      });
    } catch (cause) {
      throw new KubeConfigError('Unreadable', `cannot read the kubeconfig from ${source}`, cause);
    }
  };
  const fromEnv = (env.KUBECONFIG ?? '')
    .split(process.platform === 'win32' ? ';' : ':')
    .filter(Boolean);
  const serviceAccountDir = options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const home = join(options.homeDir ?? homedir(), '.kube', 'config');
  let kubeConfig: LoadedKubeConfig;
  if (options.kubeconfig !== undefined && options.kubeconfig !== '') {
    kubeConfig = fromFiles([options.kubeconfig], `--kubeconfig ${options.kubeconfig}`);
  } else if (fromEnv.length > 0) {
    kubeConfig = fromFiles(fromEnv, `KUBECONFIG=${env.KUBECONFIG}`);
  } else if (
    env.KUBERNETES_SERVICE_HOST &&
    env.KUBERNETES_SERVICE_PORT &&
    existsSync(join(serviceAccountDir, 'token'))
  ) {
    kubeConfig = inCluster(
      env.KUBERNETES_SERVICE_HOST,
      env.KUBERNETES_SERVICE_PORT,
      serviceAccountDir,
    );
  } else if (existsSync(home)) {
    kubeConfig = fromFiles([home], home);
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
  if (options.insecureSkipTlsVerify === true) kubeConfig = skippingTlsVerify(kubeConfig);
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster?.skipTLSVerify && !cluster.server.startsWith('http:')) {
    options.logger?.warn(
      {
        server: cluster.server,
        source: options.insecureSkipTlsVerify ? '--insecure-skip-tls-verify' : 'kubeconfig',
      },
      `TLS verification is off (insecure-skip-tls-verify): the certificate of ${cluster.server} is not checked, so the connection is open to a man in the middle; use for testing only`,
    );
  }
  return kubeConfig;
}

/**
 * `config` with its current cluster not verifying the server's certificate and without a
 * CA, as kubectl's `--insecure-skip-tls-verify` overrides the kubeconfig (clientcmd drops
 * the CA, which Go would otherwise still use).
 */
function skippingTlsVerify(config: LoadedKubeConfig): LoadedKubeConfig {
  const current = config.getCurrentCluster();
  return new LoadedKubeConfig({
    clusters: config.clusters.map((c) =>
      c === current
        ? {
            name: c.name,
            server: c.server,
            skipTLSVerify: true,
            ...(c.tlsServerName !== undefined && { tlsServerName: c.tlsServerName }),
            ...(c.proxyUrl !== undefined && { proxyUrl: c.proxyUrl }),
          }
        : c,
    ),
    users: config.users,
    contexts: config.contexts,
    currentContext: config.getCurrentContext(),
  });
}

/** The in-cluster config (client-go's `rest.InClusterConfig`); the token file is re-read as it rotates. */
function inCluster(host: string, port: string, dir: string): LoadedKubeConfig {
  const server = isIPv6(host) ? `https://[${host}]:${port}` : `https://${host}:${port}`;
  const namespaceFile = join(dir, 'namespace');
  const namespace = existsSync(namespaceFile)
    ? readFileSync(namespaceFile, 'utf8').trim()
    : undefined;
  return new LoadedKubeConfig({
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
