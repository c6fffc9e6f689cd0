//! @ctrlkit/dra-example-driver: the wiring of ctrlkit-dra-example-driver, importable for tests and demos.

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
