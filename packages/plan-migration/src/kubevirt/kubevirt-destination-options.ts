//! The options of the KubeVirt destination: the cluster, the plan and Migration, the source's builder and inventory.

import type { Logger } from '@ctrlkit/core';
import type { Client, KubeConfigLike } from '@ctrlkit/runtime/client';
import type { Builder, Inventory } from '../adapter.js';
import type { NetworkMap, StorageMap } from '../api/mapping.js';
import type { Plan } from '../api/plan.js';
import type { Provider } from '../api/provider.js';
import type { DEFAULT_VIRT_V2V_IMAGE } from './conversion-pod.js';

/** Options of `KubeVirtDestination`. */
export interface KubeVirtDestinationOptions {
  /** The destination cluster: the runtime's one client (`manager.client`). Required unless `kubeConfig` is given. */
  client?: Client;
  /** Instead of `client`, for convenience: this kubeconfig's default client. */
  kubeConfig?: KubeConfigLike;
  /** The plan migrating. Required. */
  plan: Plan;
  /** The active Migration's UID (`''` when there is none, as for orphan cleanup). Required. */
  migrationUID: string;
  /** The active Migration's name, on the OVA store PV (upstream labels it by name). Default `''`. */
  migrationName?: string;
  /** The source Provider: its type decides the OVA store, its `spec.url` is the NFS share. */
  source?: Provider;
  /** The source builder: DataVolume sources and the conversion pod's environment. */
  builder?: Builder;
  /** The source inventory: the datastore of each disk, for the StorageMap. */
  inventory?: Inventory;
  /** The plan's StorageMap: each disk's storage class, access and volume mode by its datastore. */
  storageMap?: StorageMap;
  /** The plan's NetworkMap: the VM's interfaces and networks, by each NIC's network. Default: the VM gets none. */
  networkMap?: NetworkMap;
  /** The virt-v2v image. Default {@link DEFAULT_VIRT_V2V_IMAGE}. */
  virtV2vImage?: string;
  /** The destination is the cluster the controller runs in. Default true. */
  destinationIsHost?: boolean;
  /** Reads the conversion pod's metrics (`http://<podIP>:2112/metrics`). Default: `fetch`. */
  fetchMetrics?: (url: string) => Promise<string>;
  logger?: Logger;
}
