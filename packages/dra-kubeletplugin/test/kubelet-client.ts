// Test-only: gRPC clients of the kubelet's side, built only from the pinned .proto files in
// proto/ (loaded with @grpc/proto-loader), never through the package's own code.

import { fileURLToPath } from 'node:url';
import { type Client, credentials, loadPackageDefinition } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';

const protoDir = fileURLToPath(new URL('../proto/', import.meta.url));

type Unary = (request: unknown, callback: (error: Error | null, response: unknown) => void) => void;

function load(file: string): Record<string, unknown> {
  return loadPackageDefinition(
    loadSync(`${protoDir}${file}`, { longs: Number, enums: String, defaults: true, oneofs: true }),
  ) as Record<string, unknown>;
}

function lookup(
  root: Record<string, unknown>,
  path: string,
): new (
  address: string,
  creds: unknown,
) => Client {
  let node: unknown = root;
  for (const part of path.split('.')) node = (node as Record<string, unknown>)[part];
  return node as new (
    address: string,
    creds: unknown,
  ) => Client;
}

/** Calls `method` on `client` and resolves with the response (rejects with the gRPC error). */
export function call<T>(client: Client, method: string, request: unknown): Promise<T> {
  const fn = (client as unknown as Record<string, Unary>)[method];
  if (typeof fn !== 'function') throw new Error(`no method ${method}`);
  return new Promise((resolve, reject) => {
    fn.call(client, request, (error, response) => (error ? reject(error) : resolve(response as T)));
  });
}

/** The kubelet's clients for a plugin: registration on `registrarSocket`, DRA on `draSocket`. */
export function kubeletClients(registrarSocket: string, draSocket: string) {
  const insecure = credentials.createInsecure();
  const Registration = lookup(
    load('pluginregistration_v1_api.proto'),
    'pluginregistration.Registration',
  );
  const DraV1 = lookup(load('dra_v1_api.proto'), 'k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin');
  const DraV1beta1 = lookup(
    load('dra_v1beta1_api.proto'),
    'k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin',
  );
  const HealthV1 = lookup(load('dra-health_v1_api.proto'), 'v1.DRAResourceHealth');
  const HealthV1alpha1 = lookup(
    load('dra-health_v1alpha1_api.proto'),
    'v1alpha1.DRAResourceHealth',
  );
  const clients = {
    registration: new Registration(`unix://${registrarSocket}`, insecure),
    draV1: new DraV1(`unix://${draSocket}`, insecure),
    draV1beta1: new DraV1beta1(`unix://${draSocket}`, insecure),
    healthV1: new HealthV1(`unix://${draSocket}`, insecure),
    healthV1alpha1: new HealthV1alpha1(`unix://${draSocket}`, insecure),
  };
  return {
    ...clients,
    close: () => {
      for (const client of Object.values(clients)) client.close();
    },
  };
}

/** What `NodePrepareResources` answers, as proto-loader decodes it. */
export interface PrepareResponse {
  claims: Record<
    string,
    {
      error: string;
      devices: Array<{
        requestNames: string[];
        poolName: string;
        deviceName: string;
        cdiDeviceIds: string[];
        shareId?: string;
      }>;
    }
  >;
}
