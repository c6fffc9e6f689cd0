//! The kubelet plugin as a Manager runnable: serves the GPU plugin and publishes the node's GPUs.

import { mkdir } from 'node:fs/promises';
import type { Logger } from '@ctrlkit/core';
import { type Helper, startPlugin } from '@ctrlkit/dra-kubeletplugin';
import type { Manager } from '@ctrlkit/runtime';
import { Gauge } from 'prom-client';
import { DRIVER_NAME, gpuResources } from '../devices.js';
import { DeviceState } from './device-state.js';
import { gpuPlugin } from './gpu-plugin.js';

/** What the kubelet plugin needs (the flags, parsed). */
export interface KubeletPluginOptions {
  /** The node the plugin runs on: its pool and the slices' owner. */
  nodeName: string;
  /** Simulated GPUs `gpu-0`..`gpu-(N-1)`. */
  numDevices: number;
  /** `--cdi-root`: where the CDI specs are written. */
  cdiRoot: string;
  /** `--kubelet-registrar-directory-path`: the kubelet's plugin registry. */
  kubeletRegistrarDirectoryPath: string;
  /** `--kubelet-plugins-directory-path`: the plugin's DRA socket and checkpoint go in `<it>/<driver>`. */
  kubeletPluginsDirectoryPath: string;
  /** Where the plugin logs (pino in the bin). */
  logger: Logger;
}

function deviceNames(options: KubeletPluginOptions): Set<string> {
  const resources = gpuResources({ ...options, partitions: 0 });
  const pool = resources.pools[options.nodeName];
  return new Set((pool?.slices ?? []).flatMap((s) => (s.devices ?? []).map((d) => d.name)));
}

/**
 * Adds the kubelet plugin to `manager`: a runnable (one per node, no leader election) that
 * creates `<plugins dir>/gpu.example.com`, opens the checkpointed `DeviceState`, serves the plugin to the kubelet over its
 * sockets (`<plugins dir>/gpu.example.com/dra.sock`, `<registrar dir>/gpu.example.com-reg.sock`),
 * publishes the node's GPUs, and on shutdown stops serving WITHOUT deleting the slices.
 * `/readyz` reports ready once the sockets are up; `/metrics` has
 * `dra_example_kubeletplugin_prepared_claims`.
 */
export function addKubeletPlugin(manager: Manager, options: KubeletPluginOptions): void {
  let helper: Helper | undefined;
  let state: DeviceState | undefined;
  new Gauge({
    name: 'dra_example_kubeletplugin_prepared_claims',
    help: 'Claims prepared on this node, as the checkpoint has them.',
    registers: [manager.registry],
    async collect() {
      this.set(state === undefined ? 0 : Object.keys(await state.preparedClaims()).length);
    },
  });
  manager.addReadyzCheck('kubelet-plugin', () => {
    if (helper === undefined) throw new Error('the kubelet plugin has not started');
  });
  const pluginDataDirectoryPath = `${options.kubeletPluginsDirectoryPath}/${DRIVER_NAME}`;
  manager.add({
    name: 'dra-example-kubeletplugin',
    needLeaderElection: false,
    start: async (signal) => {
      const { logger } = options;
      await mkdir(pluginDataDirectoryPath, { recursive: true, mode: 0o750 });
      state = await DeviceState.open({
        nodeName: options.nodeName,
        cdiRoot: options.cdiRoot,
        checkpointDirectory: pluginDataDirectoryPath,
        allocatable: deviceNames(options),
      });
      helper = await startPlugin(
        {
          driverName: DRIVER_NAME,
          client: manager.client,
          nodeName: options.nodeName,
          registrarDirectoryPath: options.kubeletRegistrarDirectoryPath,
          pluginDataDirectoryPath,
          logger,
        },
        gpuPlugin(state, logger),
      );
      await helper.publishResources(gpuResources({ ...options, partitions: 0 }));
      logger.info(
        { driver: DRIVER_NAME, node: options.nodeName, devices: options.numDevices },
        'kubelet plugin serving',
      );
      if (!signal.aborted) {
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      }
      await helper.stop();
      logger.info({}, 'kubelet plugin stopped; ResourceSlices left in place');
    },
  });
}
