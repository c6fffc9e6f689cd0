//! @ctrlkit/virtual-kubelet: the wiring of ctrlkit-virtual-kubelet, for embedding and tests.

export { FLAGS, type Flags, parseFlags, usage } from './flags.js';
export {
  DEFAULT_MOCK_CAPACITY,
  MockProvider,
  type MockProviderOptions,
  type StatsSummary,
} from './providers/mock-provider.js';
export { buildVirtualKubelet, defaultInternalIP, type VirtualKubelet } from './run.js';
