//! What the write helpers (`apply`, `patchStatus`, finalizers) write through: the runtime's Client (or a kubeconfig for its default client), or any object with their two writes.

import type { KubeObject, Wire } from '@ctrlkit/client';

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
 * The writes the helpers make. A `ClientSource` (a `Client`, or a kubeconfig) gets one
 * built for it; an object of your own with these two methods (a test double, another
 * client) is used as it is.
 */
export interface ObjectWriter {
  /** A JSON patch (`application/json-patch+json`) of `target` (identified by apiVersion, kind, namespace, name). */
  jsonPatch<T extends KubeObject>(
    target: KubeObject,
    operations: readonly JsonPatchOperation[],
    request?: PatchRequest,
  ): Promise<Wire<T>>;
  /**
   * A patch of content type `strategy` (`application/merge-patch+json`,
   * `application/apply-patch+yaml`, …; client-node's `PatchStrategy` values) whose body
   * is `body` (an object with apiVersion, kind and metadata; `metadata.managedFields` is
   * left out).
   */
  patchObject<T extends KubeObject>(
    body: KubeObject,
    strategy: string,
    request?: PatchRequest,
  ): Promise<Wire<T>>;
}
