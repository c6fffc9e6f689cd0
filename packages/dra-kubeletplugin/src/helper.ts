//! startPlugin and the Helper it gives: the two gRPC servers, the claim checks, slice publishing.

import { stat } from 'node:fs/promises';
import { InvalidArgumentError, noopLogger } from '@ctrlkit/core';
import { type Controller, type DriverResources, startController } from '@ctrlkit/dra-resourceslice';
import { type Client, toClient } from '@ctrlkit/runtime/client';
import { Server } from '@grpc/grpc-js';
import type { DRAPlugin } from './dra-plugin.js';
import { listenUnix, type UnixGrpcServer } from './internal/grpc-server.js';
import { healthServiceHandlers } from './internal/health-service.js';
import { nodeServiceHandlers } from './internal/node-service.js';
import { RegistrationService } from './internal/registration-service.js';
import { Serializer } from './internal/serializer.js';
import {
  DRA_V1_SERVICE,
  DRA_V1BETA1_SERVICE,
  HEALTH_V1_SERVICE,
  HEALTH_V1ALPHA1_SERVICE,
  REGISTRATION_SERVICE,
  SERVICE_NAMES,
} from './kubelet-grpc.js';
import {
  type PluginOptions,
  type RegistrationStatus,
  type ResolvedPluginOptions,
  resolvePluginOptions,
} from './plugin-options.js';

/**
 * A running kubelet plugin (upstream's `Helper`): serves the DRA socket and the
 * registration socket, and publishes the node's ResourceSlices on request. Made by
 * {@link startPlugin}.
 */
export class Helper {
  readonly #options: ResolvedPluginOptions;
  readonly #plugin: DRAPlugin;
  readonly #client: Client;
  readonly #abort = new AbortController();
  readonly #servers: UnixGrpcServer[] = [];
  #registration: RegistrationService | undefined;
  #slices: Promise<Controller> | undefined;
  #stopped: Promise<void> | undefined;

  /** @internal Use {@link startPlugin}. */
  constructor(options: ResolvedPluginOptions, plugin: DRAPlugin) {
    this.#options = options;
    this.#plugin = plugin;
    this.#client = toClient(options.client, 'client');
  }

  /** The service names the registration advertises (`v1.DRAPlugin`, ...), in preference order. */
  get supportedServices(): readonly string[] {
    const o = this.#options;
    const services: string[] = [];
    if (o.nodeV1) services.push(SERVICE_NAMES.draV1);
    if (o.nodeV1beta1) services.push(SERVICE_NAMES.draV1beta1);
    if (this.#healthEnabled) services.push(SERVICE_NAMES.healthV1, SERVICE_NAMES.healthV1alpha1);
    return services;
  }

  get #healthEnabled(): boolean {
    return this.#options.healthService && typeof this.#plugin.watchHealthStatus === 'function';
  }

  /** @internal Starts the DRA server, then the registration server. */
  async start(): Promise<void> {
    const o = this.#options;
    if (o.draService) this.#servers.push(await listenUnix(this.#draServer(), o.pluginSocketPath));
    if (o.registrationService) {
      const registration = new RegistrationService(
        {
          driverName: o.driverName,
          endpoint: o.pluginSocketPath,
          supportedVersions: this.supportedServices,
        },
        (status) =>
          (o.logger ?? noopLogger).info({ status }, 'registration status from the kubelet'),
      );
      const server = new Server();
      server.addService(REGISTRATION_SERVICE, registration.handlers());
      this.#servers.push(await listenUnix(server, o.registrarSocketPath));
      this.#registration = registration;
    }
    if (o.signal?.aborted) await this.stop();
    else o.signal?.addEventListener('abort', () => void this.stop(), { once: true });
  }

  #draServer(): Server {
    const o = this.#options;
    const server = new Server();
    const node = nodeServiceHandlers({
      client: this.#client,
      driverName: o.driverName,
      plugin: this.#plugin,
      serializer: new Serializer(o.serialize),
      logger: o.logger ?? noopLogger,
    });
    if (o.nodeV1) server.addService(DRA_V1_SERVICE, node);
    if (o.nodeV1beta1) server.addService(DRA_V1BETA1_SERVICE, node);
    if (o.healthService) {
      const health = healthServiceHandlers(this.#plugin, this.#abort.signal);
      server.addService(HEALTH_V1_SERVICE, health);
      server.addService(HEALTH_V1ALPHA1_SERVICE, health);
    }
    return server;
  }

  /**
   * Publishes `resources` as this node's ResourceSlices through `@ctrlkit/dra-resourceslice`
   * (owner: the Node `nodeName`). The first call starts the controller (resolves once its
   * informer has synced), later calls update it. Errors of publishing go to the plugin's
   * `handleError` as recoverable. Throws `InvalidArgumentError` when `nodeName` was not set.
   */
  async publishResources(resources: DriverResources): Promise<void> {
    const { nodeName, nodeUid, driverName, logger } = this.#options;
    if (nodeName === undefined)
      throw new InvalidArgumentError('nodeName', 'no nodeName was set to publish resources');
    if (this.#stopped) throw new Error('publishResources: the plugin was stopped');
    if (this.#slices === undefined) {
      this.#slices = startController({
        driverName,
        kubeClient: this.#client,
        owner: {
          apiVersion: 'v1',
          kind: 'Node',
          name: nodeName,
          ...(nodeUid ? { uid: nodeUid } : {}),
        },
        resources,
        errorHandler: (error, message) => this.#plugin.handleError(error, message, true),
        signal: this.#abort.signal,
        ...(logger ? { logger } : {}),
      });
      this.#slices.catch(() => {
        this.#slices = undefined;
      });
      await this.#slices;
      return;
    }
    (await this.#slices).update(resources);
  }

  /** What the kubelet last said in NotifyRegistrationStatus; undefined before that (or without a registration server). */
  registrationStatus(): RegistrationStatus | undefined {
    return this.#registration?.status;
  }

  /** Stops both servers (removing their sockets), health streams and slice publishing. Idempotent. */
  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      this.#abort.abort();
      await Promise.all(this.#servers.map((server) => server.stop()));
      const slices = await this.#slices?.catch(() => undefined);
      await slices?.stop();
    })();
    return this.#stopped;
  }
}

async function requireDirectory(field: string, path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isDirectory())
    throw new InvalidArgumentError(field, `directory ${path} does not exist`);
}

function checkPlugin(plugin: DRAPlugin): void {
  if (plugin === null || typeof plugin !== 'object')
    throw new InvalidArgumentError('plugin', 'must be an object');
  for (const method of [
    'prepareResourceClaims',
    'unprepareResourceClaims',
    'handleError',
  ] as const) {
    if (typeof plugin[method] !== 'function')
      throw new InvalidArgumentError(`plugin.${method}`, 'must be a function');
  }
  if (plugin.watchHealthStatus !== undefined && typeof plugin.watchHealthStatus !== 'function') {
    throw new InvalidArgumentError('plugin.watchHealthStatus', 'must be a function when set');
  }
}

/**
 * Starts a DRA kubelet plugin (upstream's `kubeletplugin.Start`): the DRA service
 * (`v1.DRAPlugin`, `v1beta1.DRAPlugin`, and DRAResourceHealth when the plugin watches
 * health) on `<pluginDataDirectoryPath>/<pluginSocket>`, then the registration service on
 * `<registrarDirectoryPath>/<registrarSocketFilename>`, stale sockets removed first.
 *
 * Errors: `InvalidArgumentError` for a bad option or plugin (naming it), or a directory that
 * does not exist; an `Error` when a socket cannot be listened on.
 */
export async function startPlugin(options: PluginOptions, plugin: DRAPlugin): Promise<Helper> {
  const resolved = resolvePluginOptions(options);
  checkPlugin(plugin);
  if (resolved.draService)
    await requireDirectory('pluginDataDirectoryPath', resolved.pluginDataDirectoryPath);
  if (resolved.registrationService)
    await requireDirectory('registrarDirectoryPath', resolved.registrarDirectoryPath);
  const helper = new Helper(resolved, plugin);
  try {
    await helper.start();
  } catch (error) {
    await helper.stop();
    throw error;
  }
  return helper;
}
