//! The example driver's DRAPlugin: prepares and unprepares claims through the DeviceState.

import { errorMessage, type Logger } from '@ctrlkit/core';
import type { DRAPlugin, PrepareResult } from '@ctrlkit/dra-kubeletplugin';
import type { DeviceState } from './device-state.js';

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(errorMessage(error));
}

/**
 * The plugin the helper serves: each claim is prepared or unprepared on its own (one claim's
 * error is that claim's, the others go on); errors of background work are logged.
 */
export function gpuPlugin(state: DeviceState, logger: Logger): DRAPlugin {
  return {
    async prepareResourceClaims(claims) {
      const results = new Map<string, PrepareResult>();
      for (const claim of claims) {
        const uid = claim.metadata?.uid ?? '';
        const ref = `${claim.metadata?.namespace}/${claim.metadata?.name}`;
        try {
          const devices = await state.prepare(claim);
          logger.info({ claim: ref, uid, devices: devices.map((d) => d.deviceName) }, 'prepared');
          results.set(uid, {
            devices: devices.map(({ requests, poolName, deviceName, cdiDeviceIds }) => ({
              requests,
              poolName,
              deviceName,
              cdiDeviceIds,
            })),
          });
        } catch (error) {
          logger.error({ err: error, claim: ref, uid }, `prepare failed: ${errorMessage(error)}`);
          results.set(uid, { error: asError(error) });
        }
      }
      return results;
    },
    async unprepareResourceClaims(refs) {
      const results = new Map<string, Error | null>();
      for (const ref of refs) {
        try {
          await state.unprepare(ref.uid);
          logger.info({ claim: `${ref.namespace}/${ref.name}`, uid: ref.uid }, 'unprepared');
          results.set(ref.uid, null);
        } catch (error) {
          logger.error({ err: error, uid: ref.uid }, `unprepare failed: ${errorMessage(error)}`);
          results.set(ref.uid, asError(error));
        }
      }
      return results;
    },
    handleError(error, message, recoverable) {
      logger.error({ err: error, recoverable }, `${message}: ${error.message}`);
    },
  };
}
