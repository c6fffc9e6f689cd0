//! The error of giving an object a second controller.

import { CtrlkitError } from '@ctrlkit/core';
import type { V1OwnerReference } from '@kubernetes/client-node';

/**
 * Thrown by {@link setControllerReference} when the object already has a controller
 * reference to another owner (controller-runtime's `AlreadyOwnedError`): an object has at
 * most one controller.
 */
export class AlreadyOwnedError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'AlreadyOwned' as const;
  /** The object's namespace ('' when cluster-scoped) and name. */
  readonly object: { namespace: string; name: string };
  /** The controller reference the object already has. */
  readonly owner: V1OwnerReference;

  constructor(object: { namespace: string; name: string }, owner: V1OwnerReference) {
    super(
      `Object ${object.namespace}/${object.name} is already owned by another ${owner.kind} controller ${owner.name}`,
    );
    this.object = object;
    this.owner = owner;
  }
}
