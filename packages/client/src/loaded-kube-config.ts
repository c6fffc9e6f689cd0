//! A kubeconfig as loadKubeConfig reads it: client-node's file format, exec plugins and token files, without loading client-node's generated API (~25 MB of heap).

import { readFileSync } from 'node:fs';
import type * as https from 'node:https';
import { dirname, isAbsolute, join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  type Cluster,
  type Context,
  exportCluster,
  exportContext,
  exportUser,
  newClusters,
  newContexts,
  newUsers,
  type User,
} from '@kubernetes/client-node/dist/config_types.js';
import { ExecAuth } from '@kubernetes/client-node/dist/exec_auth.js';
import { FileAuth } from '@kubernetes/client-node/dist/file_auth.js';
import { load } from 'js-yaml';
import { clientNodeIndex } from './internal/client-node-index.js';
import type { KubeConfigLike } from './transport.js';

/** The clusters, users and contexts of a kubeconfig, in client-node's shapes. */
export interface KubeConfigData {
  readonly clusters: readonly Cluster[];
  readonly users: readonly User[];
  readonly contexts: readonly Context[];
  readonly currentContext: string;
}

/**
 * A kubeconfig (client-go's `clientcmd` config) that the runtime's client can use, read
 * with client-node's own parts: its file format and checks (`config_types`), its exec
 * credential plugins (`ExecAuth`, tokens cached until they expire) and token files
 * (`FileAuth`, re-read as an in-cluster token rotates). A user with another auth provider
 * (`azure`, `gcp`, `oidc`) or a cluster behind a `proxy-url` is served by client-node's
 * whole `KubeConfig`, loaded then; {@link LoadedKubeConfig.toKubeConfig} gives that object for
 * code that wants client-node's API classes.
 *
 * Why not client-node's `KubeConfig` itself: importing it loads client-node's generated API
 * classes and serializer (`dist/config.js` imports them), about 25 MB of heap that a
 * controller on the runtime's client never uses.
 */
export class LoadedKubeConfig implements KubeConfigLike {
  readonly clusters: readonly Cluster[];
  readonly users: readonly User[];
  readonly contexts: readonly Context[];
  #currentContext: string;
  readonly #authenticators = [new ExecAuth(), new FileAuth()];
  #full: KubeConfig | undefined;
  /** Inline certificate data (base64) decoded once: the same text gives the same Buffer. */
  readonly #decoded = new Map<string, Buffer>();

  constructor(data: KubeConfigData) {
    this.clusters = data.clusters;
    this.users = data.users;
    this.contexts = data.contexts;
    this.#currentContext = data.currentContext;
  }

  /** Parses a kubeconfig's YAML; relative file paths are taken from `directory`. */
  static fromString(text: string, directory?: string): LoadedKubeConfig {
    const raw = (load(text) ?? {}) as {
      clusters?: unknown;
      users?: unknown;
      contexts?: unknown;
      'current-context'?: unknown;
    };
    const clusters = newClusters(raw.clusters);
    const users = newUsers(raw.users);
    if (directory !== undefined) {
      for (const cluster of clusters) cluster.caFile = absolute(directory, cluster.caFile);
      for (const user of users) {
        user.certFile = absolute(directory, user.certFile);
        user.keyFile = absolute(directory, user.keyFile);
      }
    }
    return new LoadedKubeConfig({
      clusters,
      users,
      contexts: newContexts(raw.contexts),
      currentContext: typeof raw['current-context'] === 'string' ? raw['current-context'] : '',
    });
  }

  /** Reads the kubeconfig file `file`. Throws what reading or parsing it throws. */
  static fromFile(file: string): LoadedKubeConfig {
    return LoadedKubeConfig.fromString(readFileSync(file, 'utf8'), dirname(file));
  }

  /** The name of the current context. */
  getCurrentContext(): string {
    return this.#currentContext;
  }

  /** Makes `name` the current context (it should be one of {@link contexts}). */
  setCurrentContext(name: string): void {
    this.#currentContext = name;
    this.#full?.setCurrentContext(name);
  }

  /** The context named `name`, or null. */
  getContextObject(name: string): Context | null {
    return this.contexts.find((context) => context.name === name) ?? null;
  }

  /** The cluster of the current context, or null. */
  getCurrentCluster(): Cluster | null {
    const name = this.getContextObject(this.#currentContext)?.cluster;
    return this.clusters.find((cluster) => cluster.name === name) ?? null;
  }

  /** The user of the current context, or null. */
  getCurrentUser(): User | null {
    const name = this.getContextObject(this.#currentContext)?.user;
    return this.users.find((user) => user.name === name) ?? null;
  }

  /**
   * Sets `options`' TLS material (CA, client certificate and key, verification, server
   * name) and credentials (bearer token, exec plugin, token file, basic auth,
   * impersonation) for a request to the current cluster, as client-node's
   * `KubeConfig.applyToHTTPSOptions` does.
   */
  async applyToHTTPSOptions(options: https.RequestOptions): Promise<void> {
    const cluster = this.getCurrentCluster();
    const user = this.getCurrentUser();
    const authenticator =
      user === null ? undefined : this.#authenticators.find((a) => a.isAuthProvider(user));
    if (cluster?.proxyUrl || (user?.authProvider !== undefined && authenticator === undefined)) {
      await this.toKubeConfig().applyToHTTPSOptions(options);
      return;
    }
    if (user === null) return;
    if (cluster?.skipTLSVerify) options.rejectUnauthorized = false;
    if (cluster?.tlsServerName) options.servername = cluster.tlsServerName;
    const ca = this.#fileOrData(cluster?.caFile, cluster?.caData);
    if (ca !== undefined) options.ca = ca;
    const cert = this.#fileOrData(user.certFile, user.certData);
    if (cert !== undefined) options.cert = cert;
    const key = this.#fileOrData(user.keyFile, user.keyData);
    if (key !== undefined) options.key = key;
    options.headers ??= {};
    const headers = options.headers as Record<string, string>;
    if (user.impersonateUser != null) headers['Impersonate-User'] = user.impersonateUser;
    if (authenticator !== undefined) await authenticator.applyAuthentication(user, options);
    if (user.token) headers.Authorization = `Bearer ${user.token}`;
    if (user.username) options.auth = `${user.username}:${user.password}`;
  }

  /**
   * A file's bytes, read again each time (a rotated certificate is used), or inline
   * base64 `data` decoded once per text, not for every request.
   */
  #fileOrData(file: string | undefined, data: string | undefined): Buffer | undefined {
    if (file) return readFileSync(file);
    if (!data) return undefined;
    let decoded = this.#decoded.get(data);
    if (decoded === undefined) {
      // Certificate data changes rarely (a user who edits the loaded config): keep a few.
      if (this.#decoded.size >= 8) this.#decoded.clear();
      decoded = Buffer.from(data, 'base64');
      this.#decoded.set(data, decoded);
    }
    return decoded;
  }

  /** The kubeconfig as JSON text, as client-node's `exportConfig` writes it. */
  exportConfig(): string {
    return JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: this.clusters.map(exportCluster),
      users: this.users.map(exportUser),
      contexts: this.contexts.map(exportContext),
      preferences: {},
      'current-context': this.#currentContext,
    });
  }

  /**
   * client-node's `KubeConfig` with the same clusters, users and contexts, made on first
   * use; it loads client-node's whole index (its API classes: ~25 MB of heap).
   */
  toKubeConfig(): KubeConfig {
    if (this.#full === undefined) {
      const full = new (clientNodeIndex().KubeConfig)();
      full.loadFromOptions({
        clusters: [...this.clusters],
        users: [...this.users],
        contexts: [...this.contexts],
        currentContext: this.#currentContext,
      });
      this.#full = full;
    }
    return this.#full;
  }
}

function absolute(directory: string, file: string | undefined): string | undefined {
  return file === undefined || file === '' || isAbsolute(file) ? file : join(directory, file);
}
