//! The options of startPlugin, their defaults and their validation.

import { join } from 'node:path';
import { InvalidArgumentError, type Logger } from '@ctrlkit/core';
import { isDnsSubdomain } from '@ctrlkit/dra-resourceslice';
import type { ClientSource } from '@ctrlkit/runtime/client';

/** Where the kubelet keeps plugin data; a driver's default data directory is `<this>/<driver>`. */
export const KUBELET_PLUGINS_DIR = '/var/lib/kubelet/plugins';
/** Where the kubelet's plugin watcher looks for registration sockets. */
export const KUBELET_REGISTRY_DIR = '/var/lib/kubelet/plugins_registry';
/** The longest Unix socket path Linux accepts (108 bytes with the NUL). */
export const UNIX_PATH_MAX = 107;

/** What the kubelet last said of the registration (`pluginregistration.RegistrationStatus`). */
export interface RegistrationStatus {
  readonly pluginRegistered: boolean;
  /** Why it failed; empty when registered. */
  readonly error: string;
}

/** Options of {@link startPlugin}. */
export interface PluginOptions {
  /** The DRA driver's name: a DNS subdomain of at most 63 characters. Required. */
  driverName: string;
  /** The one client to the apiserver (`createClient`, `manager.client`, or a kubeconfig). Required. */
  client: ClientSource;
  /** The node this plugin runs on. Required for `publishResources`, ignored otherwise. */
  nodeName?: string;
  /** The Node's UID for the slices' owner reference; looked up once when omitted. */
  nodeUid?: string;
  /** The kubelet's registration directory; must exist. Default {@link KUBELET_REGISTRY_DIR}. */
  registrarDirectoryPath?: string;
  /** The registration socket's file name. Default `<driverName>-reg.sock`. */
  registrarSocketFilename?: string;
  /** The directory of the DRA socket; must exist. Default `<KUBELET_PLUGINS_DIR>/<driverName>`. */
  pluginDataDirectoryPath?: string;
  /** The DRA socket's file name. Default `dra.sock`. */
  pluginSocket?: string;
  /** Run prepare and unprepare calls one at a time. Default true. */
  serialize?: boolean;
  /** Serve `v1.DRAPlugin`. Default true. */
  nodeV1?: boolean;
  /** Serve `v1beta1.DRAPlugin` for older kubelets. Default true. */
  nodeV1beta1?: boolean;
  /** Serve and advertise DRAResourceHealth (v1, v1alpha1); has no effect without `watchHealthStatus`. Default true. */
  healthService?: boolean;
  /** Serve the registration socket. Default true (false: for tests, or a split deployment). */
  registrationService?: boolean;
  /** Serve the DRA socket. Default true (false: for tests, or a split deployment). */
  draService?: boolean;
  /** Stops the helper like `stop()`. Default: none. */
  signal?: AbortSignal;
  /** Where requests and responses (debug) and failures go. Default: nowhere. */
  logger?: Logger;
}

/** The options with every default filled in. */
export interface ResolvedPluginOptions
  extends Required<Omit<PluginOptions, 'nodeName' | 'nodeUid' | 'signal' | 'logger'>> {
  readonly nodeName: string | undefined;
  readonly nodeUid: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly logger: Logger | undefined;
  /** The full paths of both sockets. */
  readonly registrarSocketPath: string;
  readonly pluginSocketPath: string;
}

const KEYS = new Set([
  'driverName',
  'client',
  'nodeName',
  'nodeUid',
  'registrarDirectoryPath',
  'registrarSocketFilename',
  'pluginDataDirectoryPath',
  'pluginSocket',
  'serialize',
  'nodeV1',
  'nodeV1beta1',
  'healthService',
  'registrationService',
  'draService',
  'signal',
  'logger',
]);

function optionalString(options: PluginOptions, field: keyof PluginOptions): void {
  const value = options[field];
  if (value !== undefined && (typeof value !== 'string' || value === '')) {
    throw new InvalidArgumentError(
      field,
      `must be a non-empty string, got ${JSON.stringify(value)}`,
    );
  }
}

function socketPath(field: string, dir: string, file: string): string {
  if (file.includes('/'))
    throw new InvalidArgumentError(field, `must be a file name, got ${JSON.stringify(file)}`);
  const path = join(dir, file);
  if (Buffer.byteLength(path) > UNIX_PATH_MAX) {
    throw new InvalidArgumentError(
      field,
      `socket path ${path} is longer than ${UNIX_PATH_MAX} bytes`,
    );
  }
  return path;
}

/** Validates `options` and fills in the defaults; throws `InvalidArgumentError` naming the field. */
export function resolvePluginOptions(options: PluginOptions): ResolvedPluginOptions {
  if (options === null || typeof options !== 'object')
    throw new InvalidArgumentError('options', 'must be an object');
  for (const key of Object.keys(options))
    if (!KEYS.has(key)) throw new InvalidArgumentError(key, 'unknown option');
  const { driverName } = options;
  if (typeof driverName !== 'string' || driverName === '') {
    throw new InvalidArgumentError('driverName', 'driver name must be set');
  }
  if (driverName.length > 63 || !isDnsSubdomain(driverName)) {
    throw new InvalidArgumentError(
      'driverName',
      `must be a DNS subdomain of at most 63 characters, got ${JSON.stringify(driverName)}`,
    );
  }
  if (options.client === undefined || options.client === null) {
    throw new InvalidArgumentError('client', 'Kubernetes client must be set');
  }
  for (const field of [
    'nodeName',
    'nodeUid',
    'registrarDirectoryPath',
    'registrarSocketFilename',
    'pluginDataDirectoryPath',
    'pluginSocket',
  ] as const) {
    optionalString(options, field);
  }
  for (const field of [
    'serialize',
    'nodeV1',
    'nodeV1beta1',
    'healthService',
    'registrationService',
    'draService',
  ] as const) {
    if (options[field] !== undefined && typeof options[field] !== 'boolean')
      throw new InvalidArgumentError(field, 'must be a boolean');
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal))
    throw new InvalidArgumentError('signal', 'must be an AbortSignal');
  const nodeV1 = options.nodeV1 ?? true;
  const nodeV1beta1 = options.nodeV1beta1 ?? true;
  if (!nodeV1 && !nodeV1beta1)
    throw new InvalidArgumentError(
      'nodeV1',
      'no supported DRA gRPC API is enabled (nodeV1 and nodeV1beta1 are both false)',
    );
  const registrarDirectoryPath = options.registrarDirectoryPath ?? KUBELET_REGISTRY_DIR;
  const registrarSocketFilename = options.registrarSocketFilename ?? `${driverName}-reg.sock`;
  const pluginDataDirectoryPath =
    options.pluginDataDirectoryPath ?? join(KUBELET_PLUGINS_DIR, driverName);
  const pluginSocket = options.pluginSocket ?? 'dra.sock';
  return {
    driverName,
    client: options.client,
    nodeName: options.nodeName,
    nodeUid: options.nodeUid,
    registrarDirectoryPath,
    registrarSocketFilename,
    pluginDataDirectoryPath,
    pluginSocket,
    serialize: options.serialize ?? true,
    nodeV1,
    nodeV1beta1,
    healthService: options.healthService ?? true,
    registrationService: options.registrationService ?? true,
    draService: options.draService ?? true,
    signal: options.signal,
    logger: options.logger,
    registrarSocketPath: socketPath(
      'registrarSocketFilename',
      registrarDirectoryPath,
      registrarSocketFilename,
    ),
    pluginSocketPath: socketPath('pluginSocket', pluginDataDirectoryPath, pluginSocket),
  };
}
