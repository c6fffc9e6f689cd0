//! Watches the kubelet's plugin registration directory for DRA plugin sockets (the kubelet's pluginwatcher) and keeps the registry of registered drivers.

import { type FSWatcher, watch } from 'node:fs';
import { lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, type Logger, noopLogger } from '@ctrlkit/core';
import type { WirePluginInfo } from '@ctrlkit/dra-kubeletplugin/protocol';
import {
  DRA_PLUGIN_CALL_TIMEOUT_MS,
  DRA_PLUGIN_TYPE,
  DraPluginClient,
  pickDraService,
  registerPluginSocket,
  SUPPORTED_DRA_SERVICES,
} from './dra-plugin-client.js';

/** Where the kubelet's plugin watcher looks for registration sockets. */
export const DEFAULT_PLUGINS_REGISTRY_DIR = '/var/lib/kubelet/plugins_registry';
/** How often the directory is scanned again besides its change events, in ms. */
export const DEFAULT_PLUGIN_RESCAN_INTERVAL_MS = 5_000;

/** Options of {@link PluginWatcher}. */
export interface PluginWatcherOptions {
  /** The registration directory; created when missing. Default {@link DEFAULT_PLUGINS_REGISTRY_DIR}. */
  dir?: string;
  /** Scan interval besides `fs.watch` events, in ms; also how soon a failed registration is tried again. Default {@link DEFAULT_PLUGIN_RESCAN_INTERVAL_MS}. */
  rescanIntervalMs?: number;
  /** Timeout of each gRPC call, in ms. Default {@link DRA_PLUGIN_CALL_TIMEOUT_MS}. */
  callTimeoutMs?: number;
  /** Default: no logging. */
  logger?: Logger;
}

/** A registered DRA driver. */
export interface RegisteredPlugin {
  readonly driverName: string;
  /** The registration socket it came from. */
  readonly socketPath: string;
  /** The client of its DRA node service. */
  readonly client: DraPluginClient;
}

interface SocketState {
  /** Inode and change time: a plugin that restarts makes a new socket at the same path. */
  readonly identity: string;
  /** The driver registered from it; undefined while registration fails. */
  driverName: string | undefined;
}

/**
 * Registers the DRA plugins whose registration sockets are in a directory: those present at
 * start and those that appear later (`fs.watch`, plus a rescan every `rescanIntervalMs`, which
 * also retries failed registrations); a socket that disappears deregisters its driver. Each
 * socket gets `GetInfo`; a `DRAPlugin` with a name and a supported node service version
 * (`v1.DRAPlugin`, else `v1beta1.DRAPlugin`) is registered, and `NotifyRegistrationStatus`
 * tells the plugin the outcome. A driver registered again (a newer socket) replaces the older.
 */
export class PluginWatcher {
  readonly dir: string;
  readonly #rescanIntervalMs: number;
  readonly #callTimeoutMs: number;
  readonly #logger: Logger;
  readonly #sockets = new Map<string, SocketState>();
  readonly #plugins = new Map<string, RegisteredPlugin>();
  readonly #listeners = new Set<(driverName: string) => void>();
  #scanning: Promise<void> | undefined;
  #again = false;

  /** @throws InvalidArgumentError naming a bad option. */
  constructor(options: PluginWatcherOptions = {}) {
    const interval = options.rescanIntervalMs ?? DEFAULT_PLUGIN_RESCAN_INTERVAL_MS;
    if (!(Number.isFinite(interval) && interval > 0))
      throw new InvalidArgumentError('rescanIntervalMs', `must be > 0, got ${String(interval)}`);
    const dir = options.dir ?? DEFAULT_PLUGINS_REGISTRY_DIR;
    if (typeof dir !== 'string' || dir === '')
      throw new InvalidArgumentError('dir', 'must be a non-empty path');
    this.dir = dir;
    this.#rescanIntervalMs = interval;
    this.#callTimeoutMs = options.callTimeoutMs ?? DRA_PLUGIN_CALL_TIMEOUT_MS;
    this.#logger = options.logger ?? noopLogger;
  }

  /** The registered plugin of `driverName`, if any. */
  plugin(driverName: string): RegisteredPlugin | undefined {
    return this.#plugins.get(driverName);
  }

  /** The names of the registered drivers. */
  drivers(): string[] {
    return [...this.#plugins.keys()].sort();
  }

  /** Calls `listener` with a driver's name each time one registers; returns the unsubscribe. */
  onRegistered(listener: (driverName: string) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Creates the directory, registers the sockets in it, then watches it until `signal`
   * aborts; resolves after closing every client. When the directory cannot be created, logs
   * an error and registers nothing.
   */
  async run(signal: AbortSignal): Promise<void> {
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o750 });
    } catch (error) {
      // The node runs on without DRA: pods with claims stay Pending, their events say why.
      this.#logger.error({ err: error, dir: this.dir }, 'no DRA plugin can register');
      return waitForAbort(signal);
    }
    let watcher: FSWatcher | undefined;
    try {
      watcher = watch(this.dir, { signal }, () => this.#scanSoon());
      watcher.on('error', (error) =>
        this.#logger.warn({ err: error, dir: this.dir }, 'plugin registry watch failed'),
      );
    } catch (error) {
      this.#logger.warn({ err: error, dir: this.dir }, 'cannot watch; rescanning only');
    }
    const timer = setInterval(() => this.#scanSoon(), this.#rescanIntervalMs);
    try {
      await this.scan();
      await waitForAbort(signal);
    } finally {
      clearInterval(timer);
      watcher?.close();
      await this.#scanning?.catch(() => {});
      for (const plugin of this.#plugins.values()) plugin.client.close();
      this.#plugins.clear();
      this.#sockets.clear();
    }
  }

  /** Scans the directory once (a scan in progress is followed by one more); resolves when done. */
  scan(): Promise<void> {
    if (this.#scanning !== undefined) {
      this.#again = true;
      return this.#scanning;
    }
    this.#scanning = (async () => {
      do {
        this.#again = false;
        await this.#scanOnce();
      } while (this.#again);
    })().finally(() => {
      this.#scanning = undefined;
    });
    return this.#scanning;
  }

  #scanSoon(): void {
    this.scan().catch((error) =>
      this.#logger.warn({ err: error, dir: this.dir }, 'plugin registry scan failed'),
    );
  }

  async #scanOnce(): Promise<void> {
    const present = new Map<string, string>();
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (name.startsWith('.')) continue;
      const path = join(this.dir, name);
      const stats = await lstat(path).catch(() => undefined);
      if (stats?.isSocket()) present.set(path, `${stats.ino}:${stats.ctimeMs}`);
    }
    for (const [path, state] of this.#sockets) {
      if (present.get(path) !== state.identity) this.#deregister(path, state);
    }
    for (const [path, identity] of present) {
      const known = this.#sockets.get(path);
      if (known?.identity === identity && known.driverName !== undefined) continue;
      await this.#register(path, identity);
    }
  }

  async #register(socketPath: string, identity: string): Promise<void> {
    const state: SocketState = { identity, driverName: undefined };
    this.#sockets.set(socketPath, state);
    let info: WirePluginInfo;
    let error: string | undefined;
    try {
      ({ info, error } = await registerPluginSocket(
        socketPath,
        validatePluginInfo,
        this.#callTimeoutMs,
      ));
    } catch (callError) {
      this.#logger.warn({ err: callError, socketPath }, 'plugin registration failed; retrying');
      return;
    }
    if (error !== undefined) {
      this.#logger.warn({ socketPath, plugin: info.name, error }, 'plugin rejected');
      return;
    }
    const endpoint = info.endpoint === '' ? socketPath : info.endpoint;
    // validatePluginInfo made sure there is one.
    const service = pickDraService(info.supportedVersions) as string;
    const previous = this.#plugins.get(info.name);
    previous?.client.close();
    const client = new DraPluginClient(endpoint, service, this.#callTimeoutMs);
    this.#plugins.set(info.name, { driverName: info.name, socketPath, client });
    state.driverName = info.name;
    this.#logger.info({ driver: info.name, endpoint, service }, 'DRA plugin registered');
    for (const listener of this.#listeners) listener(info.name);
  }

  #deregister(socketPath: string, state: SocketState): void {
    this.#sockets.delete(socketPath);
    const driverName = state.driverName;
    if (driverName === undefined) return;
    const plugin = this.#plugins.get(driverName);
    if (plugin?.socketPath !== socketPath) return;
    plugin.client.close();
    this.#plugins.delete(driverName);
    this.#logger.info({ driver: driverName, socketPath }, 'DRA plugin deregistered');
  }
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Why the node side refuses a plugin (the kubelet's DRA `ValidatePlugin`), or undefined. */
export function validatePluginInfo(info: WirePluginInfo): string | undefined {
  if (info.type !== DRA_PLUGIN_TYPE)
    return `plugin type ${JSON.stringify(info.type)} is not supported, only ${DRA_PLUGIN_TYPE}`;
  if (info.name === '') return 'the plugin has no driver name';
  if (pickDraService(info.supportedVersions) === undefined) {
    return `none of the versions ${JSON.stringify(info.supportedVersions)} is supported, only ${SUPPORTED_DRA_SERVICES.join(', ')}`;
  }
  return undefined;
}
