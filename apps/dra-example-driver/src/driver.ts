//! The driver: a Manager runnable that publishes the node's GPUs with the ResourceSlice controller.

import type { Logger } from '@ctrlkit/core';
import { type Controller, startController } from '@ctrlkit/dra-resourceslice';
import type { Manager } from '@ctrlkit/runtime';
import { Gauge } from 'prom-client';
import { DRIVER_NAME, type GpuOptions, gpuResources } from './devices.js';

/**
 * Adds the driver to `manager`: a runnable (no leader election: one per node) that starts
 * the ResourceSlice controller with the node as owner and the simulated GPUs, and stops it
 * on shutdown WITHOUT deleting the slices (as upstream's kubelet plugin helper). `/readyz`
 * reports ready once the controller runs; its ResourceSlice informer is in the Manager's
 * informer health (`ctrlkit_informer_*`, `/healthz`); `/metrics` has
 * `dra_example_driver_resourceslice_operations{operation}`.
 */
export function addDriver(manager: Manager, options: GpuOptions & { logger: Logger }): void {
  let controller: Controller | undefined;
  new Gauge({
    name: 'dra_example_driver_resourceslice_operations',
    help: 'Successful ResourceSlice API calls of the controller, by operation.',
    labelNames: ['operation'],
    registers: [manager.registry],
    collect() {
      const stats = controller?.getStats() ?? { numCreates: 0, numUpdates: 0, numDeletes: 0 };
      this.set({ operation: 'create' }, stats.numCreates);
      this.set({ operation: 'update' }, stats.numUpdates);
      this.set({ operation: 'delete' }, stats.numDeletes);
    },
  });
  manager.addReadyzCheck('resourceslice-controller', () => {
    if (controller === undefined) throw new Error('the ResourceSlice controller has not started');
  });
  manager.add({
    name: 'dra-example-driver',
    needLeaderElection: false,
    start: async (signal) => {
      const logger = options.logger;
      controller = await startController({
        driverName: DRIVER_NAME,
        kubeClient: manager.client,
        owner: { apiVersion: 'v1', kind: 'Node', name: options.nodeName },
        resources: gpuResources(options),
        signal,
        logger,
        errorHandler: (err, message) => logger.error({ err }, `${message}: ${err.message}`),
        informerTracker: manager,
      });
      logger.info(
        {
          driver: DRIVER_NAME,
          node: options.nodeName,
          devices: options.numDevices,
          partitions: options.partitions,
        },
        'publishing devices',
      );
      if (!signal.aborted) {
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
      }
      await controller.stop();
      logger.info({ stats: controller.getStats() }, 'stopped; ResourceSlices left in place');
    },
  });
}
