//! The example driver's CDI specs: one common spec for the node, one spec per prepared claim.

import {
  formatQualifiedName,
  removeSpec,
  transientSpecName,
  writeSpec,
} from '@ctrlkit/dra-kubeletplugin';
import { DRIVER_NAME } from '../devices.js';

/** The CDI vendor of the driver's devices: `k8s.<driver>`. */
export const CDI_VENDOR = `k8s.${DRIVER_NAME}`;
/** The CDI class of the driver's devices. */
export const CDI_CLASS = 'gpu';
/** The CDI kind, `k8s.gpu.example.com/gpu`. */
export const CDI_KIND = `${CDI_VENDOR}/${CDI_CLASS}`;
/** The device of the common spec, which every prepared device also gets. */
export const CDI_COMMON_DEVICE = 'common';

/** A device as it is prepared: what the kubelet gets back, and the environment of its CDI device. */
export interface PreparedDevice {
  /** The requests the device serves. */
  readonly requests: readonly string[];
  readonly poolName: string;
  readonly deviceName: string;
  /** The common device's and the claim's device's qualified names. */
  readonly cdiDeviceIds: readonly string[];
  /** Whether the claim asked for admin access to it. */
  readonly adminAccess: boolean;
  /** The environment from the applied `GpuConfig` (`GPU_DEVICE_<n>…`). */
  readonly env: readonly string[];
}

/** The file name (without `.json`) of the spec of claim `claimUid`. */
export function claimSpecName(claimUid: string): string {
  return transientSpecName(CDI_VENDOR, CDI_CLASS, claimUid);
}

/** The CDI device IDs of `deviceName` prepared for `claimUid`: the common device, then its own. */
export function claimDeviceIds(claimUid: string, deviceName: string): string[] {
  return [
    formatQualifiedName(CDI_VENDOR, CDI_CLASS, CDI_COMMON_DEVICE),
    formatQualifiedName(CDI_VENDOR, CDI_CLASS, `${claimUid}-${deviceName}`),
  ];
}

/**
 * Writes the common spec to `cdiRoot` (atomically): device `common` with
 * `KUBERNETES_NODE_NAME` and `DRA_RESOURCE_DRIVER_NAME`, as upstream at start-up.
 */
export async function writeCommonSpec(cdiRoot: string, nodeName: string): Promise<string> {
  return writeSpec(
    cdiRoot,
    {
      kind: CDI_KIND,
      devices: [
        {
          name: CDI_COMMON_DEVICE,
          containerEdits: {
            env: [`KUBERNETES_NODE_NAME=${nodeName}`, `DRA_RESOURCE_DRIVER_NAME=${DRIVER_NAME}`],
          },
        },
      ],
    },
    transientSpecName(CDI_VENDOR, CDI_CLASS, CDI_COMMON_DEVICE),
  );
}

/** `gpu-0` → `GPU_0`: upstream's device key in `GPU_DEVICE_<key>_RESOURCE_CLAIM`. */
function claimEnvKey(deviceName: string): string {
  return deviceName.replace(/[^a-zA-Z0-9]+/g, '_').toUpperCase();
}

/**
 * Writes the spec of claim `claimUid` to `cdiRoot` (atomically): one CDI device
 * `<claimUid>-<device>` per prepared device, whose environment is
 * `GPU_DEVICE_<KEY>_RESOURCE_CLAIM=<uid>`, `DRA_ADMIN_ACCESS`, then the device's own `env`.
 */
export async function writeClaimSpec(
  cdiRoot: string,
  claimUid: string,
  devices: readonly PreparedDevice[],
): Promise<string> {
  return writeSpec(
    cdiRoot,
    {
      kind: CDI_KIND,
      devices: devices.map((d) => ({
        name: `${claimUid}-${d.deviceName}`,
        containerEdits: {
          env: [
            `${CDI_CLASS.toUpperCase()}_DEVICE_${claimEnvKey(d.deviceName)}_RESOURCE_CLAIM=${claimUid}`,
            `DRA_ADMIN_ACCESS=${d.adminAccess}`,
            ...d.env,
          ],
        },
      })),
    },
    claimSpecName(claimUid),
  );
}

/** Removes the spec of claim `claimUid`; nothing when it is not there. */
export async function removeClaimSpec(cdiRoot: string, claimUid: string): Promise<void> {
  await removeSpec(cdiRoot, claimSpecName(claimUid));
}
