//! A gRPC client of one DRA kubelet plugin: GetInfo and NotifyRegistrationStatus on its registration socket, NodePrepareResources and NodeUnprepareResources on its DRA socket.

import type {
  WireClaim,
  WirePluginInfo,
  WirePrepareResponse,
  WireUnprepareResponse,
} from '@ctrlkit/dra-kubeletplugin/protocol';
import type { ChannelCredentials, Client as GrpcClient, ServiceError } from '@grpc/grpc-js';

/** How long one call to a plugin may take, in ms (the kubelet's DRA client timeout: 45 s). */
export const DRA_PLUGIN_CALL_TIMEOUT_MS = 45_000;

/**
 * The DRA node service versions the node side speaks, preferred first (the protocol's
 * `SERVICE_NAMES.draV1` and `.draV1beta1`, written out here so that importing this module
 * loads no gRPC; a test keeps them equal).
 */
export const SUPPORTED_DRA_SERVICES: readonly string[] = ['v1.DRAPlugin', 'v1beta1.DRAPlugin'];

/** The plugin type a DRA plugin registers with (the protocol's `DRA_PLUGIN_TYPE`; a test keeps them equal). */
export const DRA_PLUGIN_TYPE = 'DRAPlugin';

type Callback<T> = (error: ServiceError | null, value?: T) => void;
type Unary = (request: unknown, options: { deadline: Date }, callback: Callback<unknown>) => void;
type ClientConstructor = new (address: string, credentials: ChannelCredentials) => GrpcClient;

/** gRPC and the client constructors of the kubelet's plugin services. */
interface Grpc {
  insecure: () => ChannelCredentials;
  registration: ClientConstructor;
  draV1: ClientConstructor;
  draV1beta1: ClientConstructor;
}

let grpc: Promise<Grpc> | undefined;

/**
 * Loads gRPC and the kubelet protocol's service definitions on first use: a node without DRA
 * plugins never does (they are a few MB of heap once imported).
 */
function loadGrpc(): Promise<Grpc> {
  grpc ??= Promise.all([
    import('@grpc/grpc-js'),
    import('@ctrlkit/dra-kubeletplugin/protocol'),
  ]).then(([g, p]) => ({
    insecure: () => g.credentials.createInsecure(),
    registration: g.makeGenericClientConstructor(p.REGISTRATION_SERVICE, 'Registration'),
    draV1: g.makeGenericClientConstructor(p.DRA_V1_SERVICE, 'DRAPlugin'),
    draV1beta1: g.makeGenericClientConstructor(p.DRA_V1BETA1_SERVICE, 'DRAPlugin'),
  }));
  return grpc;
}

/** `unix:` target of a socket path. */
function target(socketPath: string): string {
  return `unix://${socketPath}`;
}

function call<T>(
  client: GrpcClient,
  method: string,
  request: unknown,
  timeoutMs: number,
): Promise<T> {
  const fn = (client as unknown as Record<string, Unary>)[method];
  if (typeof fn !== 'function') throw new Error(`gRPC client has no method ${method}`);
  return new Promise<T>((resolve, reject) => {
    fn.call(client, request, { deadline: new Date(Date.now() + timeoutMs) }, (error, value) =>
      error ? reject(error) : resolve(value as T),
    );
  });
}

/**
 * The registration socket of a plugin: `GetInfo`, then `NotifyRegistrationStatus` with the
 * outcome, as the kubelet's plugin watcher does. Closes the connection when done.
 */
export async function registerPluginSocket(
  socketPath: string,
  validate: (info: WirePluginInfo) => string | undefined,
  timeoutMs: number = DRA_PLUGIN_CALL_TIMEOUT_MS,
): Promise<{ info: WirePluginInfo; error: string | undefined }> {
  const g = await loadGrpc();
  const client = new g.registration(target(socketPath), g.insecure());
  try {
    const info = await call<WirePluginInfo>(client, 'GetInfo', {}, timeoutMs);
    const error = validate(info);
    await call(
      client,
      'NotifyRegistrationStatus',
      { pluginRegistered: error === undefined, error: error ?? '' },
      timeoutMs,
    );
    return { info, error };
  } finally {
    client.close();
  }
}

/** The node service a plugin serves, picked from its supported versions: v1, else v1beta1. */
export function pickDraService(supportedVersions: readonly string[]): string | undefined {
  return SUPPORTED_DRA_SERVICES.find((s) => supportedVersions.includes(s));
}

/** A connection to a plugin's DRA node service (`v1.DRAPlugin` or `v1beta1.DRAPlugin`). */
export class DraPluginClient {
  /** The plugin's DRA socket. */
  readonly endpoint: string;
  /** `v1.DRAPlugin` or `v1beta1.DRAPlugin`. */
  readonly service: string;
  /** The gRPC client, once gRPC is loaded (a failure to load is each call's error). */
  readonly #client: Promise<GrpcClient>;
  readonly #timeoutMs: number;

  constructor(endpoint: string, service: string, timeoutMs: number = DRA_PLUGIN_CALL_TIMEOUT_MS) {
    this.endpoint = endpoint;
    this.service = service;
    this.#client = loadGrpc().then((g) => {
      const Ctor = service === SUPPORTED_DRA_SERVICES[1] ? g.draV1beta1 : g.draV1;
      return new Ctor(target(endpoint), g.insecure());
    });
    // Reported by the calls; a client never called leaves no unhandled rejection.
    this.#client.catch(() => {});
    this.#timeoutMs = timeoutMs;
  }

  /** `NodePrepareResources` for `claims`; per-claim errors are in the response. */
  async nodePrepareResources(claims: readonly WireClaim[]): Promise<WirePrepareResponse> {
    return call(await this.#client, 'NodePrepareResources', { claims }, this.#timeoutMs);
  }

  /** `NodeUnprepareResources` for `claims`; per-claim errors are in the response. */
  async nodeUnprepareResources(claims: readonly WireClaim[]): Promise<WireUnprepareResponse> {
    return call(await this.#client, 'NodeUnprepareResources', { claims }, this.#timeoutMs);
  }

  /** Closes the connection (once it is made, when gRPC is still loading). */
  close(): void {
    void this.#client.then(
      (client) => client.close(),
      () => {},
    );
  }
}
