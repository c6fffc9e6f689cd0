//! A gRPC client of one DRA kubelet plugin: GetInfo and NotifyRegistrationStatus on its registration socket, NodePrepareResources and NodeUnprepareResources on its DRA socket.

import {
  DRA_V1_SERVICE,
  DRA_V1BETA1_SERVICE,
  REGISTRATION_SERVICE,
  SERVICE_NAMES,
  type WireClaim,
  type WirePluginInfo,
  type WirePrepareResponse,
  type WireUnprepareResponse,
} from '@ctrlkit/dra-kubeletplugin/protocol';
import {
  credentials,
  type Client as GrpcClient,
  makeGenericClientConstructor,
  type ServiceError,
} from '@grpc/grpc-js';

/** How long one call to a plugin may take, in ms (the kubelet's DRA client timeout: 45 s). */
export const DRA_PLUGIN_CALL_TIMEOUT_MS = 45_000;

/** The DRA node service versions the node side speaks, preferred first. */
export const SUPPORTED_DRA_SERVICES: readonly string[] = [
  SERVICE_NAMES.draV1,
  SERVICE_NAMES.draV1beta1,
];

type Callback<T> = (error: ServiceError | null, value?: T) => void;
type Unary = (request: unknown, options: { deadline: Date }, callback: Callback<unknown>) => void;

const Registration = makeGenericClientConstructor(REGISTRATION_SERVICE, 'Registration');
const DraV1 = makeGenericClientConstructor(DRA_V1_SERVICE, 'DRAPlugin');
const DraV1beta1 = makeGenericClientConstructor(DRA_V1BETA1_SERVICE, 'DRAPlugin');

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
  const client = new Registration(target(socketPath), credentials.createInsecure());
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
  readonly #client: GrpcClient;
  readonly #timeoutMs: number;

  constructor(endpoint: string, service: string, timeoutMs: number = DRA_PLUGIN_CALL_TIMEOUT_MS) {
    const Ctor = service === SERVICE_NAMES.draV1beta1 ? DraV1beta1 : DraV1;
    this.endpoint = endpoint;
    this.service = service;
    this.#client = new Ctor(target(endpoint), credentials.createInsecure());
    this.#timeoutMs = timeoutMs;
  }

  /** `NodePrepareResources` for `claims`; per-claim errors are in the response. */
  nodePrepareResources(claims: readonly WireClaim[]): Promise<WirePrepareResponse> {
    return call(this.#client, 'NodePrepareResources', { claims }, this.#timeoutMs);
  }

  /** `NodeUnprepareResources` for `claims`; per-claim errors are in the response. */
  nodeUnprepareResources(claims: readonly WireClaim[]): Promise<WireUnprepareResponse> {
    return call(this.#client, 'NodeUnprepareResources', { claims }, this.#timeoutMs);
  }

  /** Closes the connection. */
  close(): void {
    this.#client.close();
  }
}
