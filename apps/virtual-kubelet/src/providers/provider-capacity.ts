//! The node's capacity as the providers report it, and the mock provider's default.

/**
 * The node's capacity (and allocatable), as Kubernetes quantities: `cpu`, `memory`, `pods`,
 * and any other resource upstream's `others` names (e.g. `nvidia.com/gpu`).
 */
export interface ProviderCapacity {
  cpu: string;
  memory: string;
  pods: string;
  [resource: string]: string;
}

/** Default capacity of the mock node, as virtual-kubelet's mock provider: 20 CPUs, 100Gi, 20 pods. */
export const DEFAULT_MOCK_CAPACITY = { cpu: '20', memory: '100Gi', pods: '20' } as const;
