//! The node's prepared claims: prepare (config applied, CDI spec, checkpoint) and unprepare.

import { join } from 'node:path';
import { CtrlkitError } from '@ctrlkit/core';
import type { ResourceClaim } from '@ctrlkit/dra-kubeletplugin';
import { DRIVER_NAME } from '../devices.js';
import type { GpuConfig } from '../gpu-config/gpu-config.js';
import {
  claimDeviceIds,
  type PreparedDevice,
  removeClaimSpec,
  writeClaimSpec,
  writeCommonSpec,
} from './cdi.js';
import {
  CHECKPOINT_FILE,
  type PreparedClaims,
  readCheckpoint,
  writeCheckpoint,
} from './checkpoint.js';
import { configsForResults, gpuEnv } from './gpu-config-apply.js';

/** Why a claim cannot be prepared. */
export type PrepareErrorReason = 'DeviceNotAllocatable' | 'DeviceInUse' | 'NotAllocated';

/** A claim this node cannot prepare; the message is the claim's error for the kubelet. */
export class PrepareError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: PrepareErrorReason;

  constructor(reason: PrepareErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Where the state lives and what the node has. */
export interface DeviceStateOptions {
  nodeName: string;
  /** The CDI spec directory written to (`--cdi-root`). */
  cdiRoot: string;
  /** The directory of the checkpoint file (the plugin's data directory). */
  checkpointDirectory: string;
  /** The names of the node's published devices. */
  allocatable: ReadonlySet<string>;
}

/**
 * The prepared claims of this node, kept in a checkpoint so that a restarted plugin answers
 * prepare with what it prepared before and can still unprepare it. Methods must not run
 * concurrently (the helper serializes calls).
 */
export class DeviceState {
  readonly #options: DeviceStateOptions;
  readonly #checkpointPath: string;

  private constructor(options: DeviceStateOptions) {
    this.#options = options;
    this.#checkpointPath = join(options.checkpointDirectory, CHECKPOINT_FILE);
  }

  /** Writes the common CDI spec and checks that the checkpoint (if any) can be read. */
  static async open(options: DeviceStateOptions): Promise<DeviceState> {
    const state = new DeviceState(options);
    await writeCommonSpec(options.cdiRoot, options.nodeName);
    await readCheckpoint(state.#checkpointPath);
    return state;
  }

  /** The prepared claims as the checkpoint has them. */
  async preparedClaims(): Promise<PreparedClaims> {
    return readCheckpoint(this.#checkpointPath);
  }

  /**
   * Prepares `claim` (allocated, with devices of this driver): idempotent (a claim in the
   * checkpoint gets its recorded devices, its spec rewritten); otherwise applies the configs,
   * refuses a device that is not the node's or is prepared for another claim, writes the
   * claim's CDI spec, then the checkpoint.
   */
  async prepare(claim: ResourceClaim): Promise<readonly PreparedDevice[]> {
    const uid = claim.metadata?.uid ?? '';
    const checkpoint = await readCheckpoint(this.#checkpointPath);
    const known = checkpoint[uid];
    if (known !== undefined) {
      await writeClaimSpec(this.#options.cdiRoot, uid, known.devices);
      return known.devices;
    }
    const devices = this.#computeDevices(claim, checkpoint);
    await writeClaimSpec(this.#options.cdiRoot, uid, devices);
    const prepared = {
      ...checkpoint,
      [uid]: {
        namespace: claim.metadata?.namespace ?? '',
        name: claim.metadata?.name ?? '',
        devices,
      },
    };
    await writeCheckpoint(this.#checkpointPath, prepared);
    return devices;
  }

  /** Unprepares claim `uid`: removes its CDI spec and its checkpoint entry; nothing when unknown. */
  async unprepare(uid: string): Promise<void> {
    const checkpoint = await readCheckpoint(this.#checkpointPath);
    await removeClaimSpec(this.#options.cdiRoot, uid);
    if (checkpoint[uid] === undefined) return;
    const { [uid]: _removed, ...rest } = checkpoint;
    await writeCheckpoint(this.#checkpointPath, rest);
  }

  #computeDevices(claim: ResourceClaim, checkpoint: PreparedClaims): PreparedDevice[] {
    const uid = claim.metadata?.uid ?? '';
    const allocation = claim.status?.allocation?.devices;
    if (allocation === undefined)
      throw new PrepareError('NotAllocated', `claim ${uid} is not allocated`);
    const results = (allocation.results ?? []).filter((r) => r.driver === DRIVER_NAME);
    for (const r of results) this.#checkFree(r.device, r.shareID, checkpoint);
    const configs = configsForResults(DRIVER_NAME, allocation.config ?? [], results);
    return results.map((r, i) => ({
      requests: [r.request],
      poolName: r.pool,
      deviceName: r.device,
      cdiDeviceIds: claimDeviceIds(uid, r.device),
      adminAccess: r.adminAccess === true,
      env: gpuEnv(r, configs[i] as GpuConfig),
    }));
  }

  #checkFree(device: string, shareId: string | undefined, checkpoint: PreparedClaims): void {
    if (!this.#options.allocatable.has(device))
      throw new PrepareError('DeviceNotAllocatable', `requested GPU is not allocatable: ${device}`);
    if (shareId !== undefined) return;
    for (const [otherUid, other] of Object.entries(checkpoint)) {
      if (other.devices.some((d) => d.deviceName === device)) {
        throw new PrepareError(
          'DeviceInUse',
          `GPU ${device} is already prepared for claim ${other.namespace}/${other.name} (${otherUid})`,
        );
      }
    }
  }
}
