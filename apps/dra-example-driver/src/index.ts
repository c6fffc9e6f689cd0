/**
 * `@ctrlkit/dra-example-driver`: the wiring of `ctrlkit-dra-example-driver`, importable for
 * tests and demos. The program publishes simulated devices with `@ctrlkit/dra-resourceslice`;
 * its logic lives there, this is the wiring: {@link parseFlags} and {@link usage} (the flag
 * table), the simulated devices, and {@link addDriver}, which adds the driver to a runtime
 * `Manager`. The kubelet plugin (`ctrlkit-dra-example-kubeletplugin`, on
 * `@ctrlkit/dra-kubeletplugin`) is {@link addKubeletPlugin} with {@link parseKubeletPluginFlags}.
 *
 * The driver's opaque configuration API, `GpuConfig` (`gpu.resource.example.com/v1alpha1`), is
 * {@link decodeGpuConfig} (strict decoding and validation, as upstream) and
 * {@link normalizeGpuConfig}; the kubelet plugin and the webhook share it. The webhook of
 * `ctrlkit-dra-example-webhook` is {@link resourceClaimParametersWebhooks}, served by
 * {@link driverWebhookServer}, configured by {@link driverWebhookConfiguration}.
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
export { decodeGpuConfig } from './gpu-config/decode-gpu-config.js';
export {
  defaultGpuConfig,
  GPU_CONFIG_API_VERSION,
  GPU_CONFIG_GROUP,
  GPU_CONFIG_KIND,
  GPU_CONFIG_VERSION,
  GPU_SHARING_STRATEGIES,
  type GpuConfig,
  type GpuSharing,
  type GpuSharingStrategy,
  normalizeGpuConfig,
  type SpacePartitioningConfig,
  TIME_SLICE_INTERVALS,
  type TimeSliceInterval,
  type TimeSlicingConfig,
} from './gpu-config/gpu-config.js';
export { GpuConfigError } from './gpu-config/gpu-config-error.js';
export {
  type KubeletPluginFlags,
  kubeletPluginUsage,
  parseKubeletPluginFlags,
} from './kubeletplugin/flags.js';
export { addKubeletPlugin, type KubeletPluginOptions } from './kubeletplugin/kubelet-plugin.js';
export {
  RESOURCE_API_VERSIONS,
  RESOURCE_CLAIM_TEMPLATE_WEBHOOK_PATH,
  RESOURCE_CLAIM_WEBHOOK_PATH,
  resourceClaimParametersWebhooks,
} from './webhook/claim-parameters-webhook.js';
export {
  type DriverWebhookConfigurationOptions,
  driverWebhookConfiguration,
  REGENERATE_WEBHOOK_CONFIGURATION_COMMAND,
  WEBHOOK_CONFIGURATION_PATH,
} from './webhook/webhook-configuration.js';
export { parseWebhookFlags, type WebhookFlags, webhookUsage } from './webhook/webhook-flags.js';
export { type DriverWebhookServerOptions, driverWebhookServer } from './webhook/webhook-server.js';
