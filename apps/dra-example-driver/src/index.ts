/**
 * `@ctrlkit/dra-example-driver`: the wiring of `ctrlkit-dra-example-driver`, importable for
 * tests and demos. The program publishes simulated devices with `@ctrlkit/dra-resourceslice`;
 * its logic lives there, this is the wiring: {@link parseFlags} and {@link usage} (the flag
 * table), the simulated devices, and {@link addDriver}, which adds the driver to a runtime
 * `Manager`. The kubelet plugin (`ctrlkit-dra-example-kubeletplugin`, on
 * `@ctrlkit/dra-kubeletplugin`) is {@link addKubeletPlugin} with {@link parseKubeletPluginFlags}.
 *
 * ```ts
 * import { addDriver, parseFlags } from '@ctrlkit/dra-example-driver';
 *
 * const flags = parseFlags(process.argv.slice(2));
 * addDriver(manager, { nodeName: flags.nodeName, numDevices: 8, partitions: 0, logger }); // then manager.start(signal)
 * ```
 *
 * @packageDocumentation
 */

export {
  DEFAULT_NUM_DEVICES,
  DRIVER_NAME,
  DRIVER_VERSION,
  GPU_COMPUTE,
  GPU_MEMORY,
  GPU_MODEL,
  type GpuOptions,
  gpuResources,
  gpuUuids,
  nodeSeed,
} from './devices.js';
export { addDriver } from './driver.js';
export { type Flags, parseFlags, usage } from './flags.js';
export {
  type KubeletPluginFlags,
  kubeletPluginUsage,
  parseKubeletPluginFlags,
} from './kubeletplugin/flags.js';
export { addKubeletPlugin, type KubeletPluginOptions } from './kubeletplugin/kubelet-plugin.js';
