//! DRAResourceHealth (v1, and v1alpha1 on the same handler): streams the plugin's health reports.

import {
  status as grpcStatus,
  type ServerWritableStream,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { DeviceHealthReport, DRAPlugin, HealthStatus } from '../dra-plugin.js';

const WIRE_HEALTH: Record<HealthStatus, string> = {
  Unknown: 'UNKNOWN',
  Healthy: 'HEALTHY',
  Unhealthy: 'UNHEALTHY',
};

/** A report as `NodeWatchResourcesResponse` (times in whole seconds). */
export function toWireHealthReport(report: DeviceHealthReport): unknown {
  return {
    devices: report.devices.map((device) => ({
      device: { poolName: device.poolName, deviceName: device.deviceName },
      health: WIRE_HEALTH[device.health ?? 'Unknown'] ?? 'UNKNOWN',
      lastUpdatedTime: device.lastUpdatedMs ? Math.floor(device.lastUpdatedMs / 1000) : 0,
      healthCheckTimeoutSeconds: Math.trunc((device.healthCheckTimeoutMs ?? 0) / 1000),
      message: device.message ?? '',
    })),
  };
}

/** The handler of `NodeWatchResources`: UNIMPLEMENTED when the plugin has no `watchHealthStatus`. */
export function healthServiceHandlers(
  plugin: DRAPlugin,
  signal: AbortSignal,
): UntypedServiceImplementation {
  return {
    NodeWatchResources: (call: ServerWritableStream<unknown, unknown>) => {
      const watch = plugin.watchHealthStatus?.bind(plugin);
      if (watch === undefined) {
        call.emit('error', {
          code: grpcStatus.UNIMPLEMENTED,
          details: 'device health reporting is not supported by this driver',
        });
        return;
      }
      const stop = new AbortController();
      call.on('cancelled', () => stop.abort());
      const stream = AbortSignal.any([stop.signal, signal]);
      (async () => {
        for await (const report of watch(stream)) {
          if (stream.aborted) break;
          call.write(toWireHealthReport(report));
        }
      })().then(
        () => call.end(),
        (error: unknown) =>
          call.emit('error', {
            code: grpcStatus.UNKNOWN,
            details: `watch health status: ${error instanceof Error ? error.message : String(error)}`,
          }),
      );
    },
  };
}
