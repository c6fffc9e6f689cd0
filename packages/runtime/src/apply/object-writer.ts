//! What the write helpers (`apply`, `patchStatus`, finalizers) write through: a KubeConfig, a client-node `KubernetesObjectApi`, or any object with their two writes.

import type {
  KubeConfig,
  KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
} from '@kubernetes/client-node';

/** Where the helpers get their client from: a KubeConfig, or a client-node `KubernetesObjectApi`. */
export type ClientSource = KubeConfig | KubernetesObjectApi;

/** One RFC 6902 JSON patch operation. */
export type JsonPatchOperation =
  | { op: 'test' | 'add' | 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };

/** How a patch is sent. */
export interface PatchRequest {
  /** `status` to write the status subresource. Default: the object itself. */
  subresource?: 'status';
  /** The field manager, required for server-side apply. */
  fieldManager?: string;
  /** Server-side apply only: take fields owned by other managers. */
  force?: boolean;
  /** `All` to validate without persisting. */
  dryRun?: 'All';
}

/**
 * The writes the helpers make. A {@link ClientSource} gets one built for it; an object of
 * your own with these two methods (a test double, another client) is used as it is.
 */
export interface ObjectWriter {
  /** A JSON patch (`application/json-patch+json`) of `target` (identified by apiVersion, kind, namespace, name). */
  jsonPatch<T extends KubernetesObject>(
    target: KubernetesObject,
    operations: readonly JsonPatchOperation[],
    request?: PatchRequest,
  ): Promise<T>;
  /**
   * A merge patch or server-side apply whose body is `body` (an object with apiVersion,
   * kind and metadata; `metadata.managedFields` is left out).
   */
  patchObject<T extends KubernetesObject>(
    body: KubernetesObject,
    strategy: PatchStrategy,
    request?: PatchRequest,
  ): Promise<T>;
}
