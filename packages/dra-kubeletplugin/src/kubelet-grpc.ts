//! The kubelet's gRPC services (pinned .proto files) as @grpc/grpc-js service definitions.

import type { ServiceDefinition } from '@grpc/grpc-js';
import { fromJSON, type PackageDefinition } from '@grpc/proto-loader';
import { KUBELET_PROTOS } from './internal/kubelet-protos.generated.js';

export { KUBELET_PROTO_VERSION } from './internal/kubelet-protos.generated.js';

/** How messages become objects: camelCase fields, defaults filled, enums as names, int64 as numbers. */
const LOADER_OPTIONS = { longs: Number, enums: String, defaults: true, oneofs: true } as const;

type Descriptor = Parameters<typeof fromJSON>[0];

function service(file: keyof typeof KUBELET_PROTOS, name: string): ServiceDefinition {
  const definition: PackageDefinition = fromJSON(
    KUBELET_PROTOS[file] as unknown as Descriptor,
    LOADER_OPTIONS,
  );
  const found = definition[name];
  if (found === undefined || 'format' in found) {
    throw new Error(`kubelet protos: no service ${name} in ${file}`);
  }
  return found as unknown as ServiceDefinition;
}

/** `pluginregistration.Registration` (k8s.io/kubelet pluginregistration/v1). */
export const REGISTRATION_SERVICE = service(
  'pluginregistration_v1_api',
  'pluginregistration.Registration',
);
/** `k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin`. */
export const DRA_V1_SERVICE = service('dra_v1_api', 'k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin');
/** `k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin`. */
export const DRA_V1BETA1_SERVICE = service(
  'dra_v1beta1_api',
  'k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin',
);
/** `v1.DRAResourceHealth` (dra-health/v1). */
export const HEALTH_V1_SERVICE = service('dra-health_v1_api', 'v1.DRAResourceHealth');
/** `v1alpha1.DRAResourceHealth` (dra-health/v1alpha1). */
export const HEALTH_V1ALPHA1_SERVICE = service(
  'dra-health_v1alpha1_api',
  'v1alpha1.DRAResourceHealth',
);

/** What the kubelet names each service in `PluginInfo.supported_versions`. */
export const SERVICE_NAMES = {
  draV1: 'v1.DRAPlugin',
  draV1beta1: 'v1beta1.DRAPlugin',
  healthV1: 'v1.DRAResourceHealth',
  healthV1alpha1: 'v1alpha1.DRAResourceHealth',
} as const;

/** The plugin type a DRA driver registers as (`PluginInfo.type`). */
export const DRA_PLUGIN_TYPE = 'DRAPlugin';

/** `PluginInfo`: what `GetInfo` answers. */
export interface WirePluginInfo {
  type: string;
  name: string;
  /** The plugin's own socket; empty when the registration socket serves it too. */
  endpoint: string;
  supportedVersions: string[];
}

/** `Claim` of the DRA API: what the kubelet asks to prepare or unprepare. */
export interface WireClaim {
  namespace: string;
  uid: string;
  name: string;
}

/** `Device` of `NodePrepareResourceResponse`. */
export interface WireDevice {
  requestNames: string[];
  poolName: string;
  deviceName: string;
  cdiDeviceIds: string[];
  shareId?: string;
}

/** `NodePrepareResourcesResponse`. */
export interface WirePrepareResponse {
  claims: Record<string, { devices: WireDevice[]; error: string }>;
}

/** `NodeUnprepareResourcesResponse`. */
export interface WireUnprepareResponse {
  claims: Record<string, { error: string }>;
}
