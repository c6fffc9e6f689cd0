//! The error of an owner reference the apiserver's garbage collector would not honour.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * What went wrong:
 * - `NamespacedOwnerOfClusterScopedObject`: a cluster-scoped object cannot have a
 *   namespaced owner;
 * - `CrossNamespaceOwner`: the owner lives in another namespace than the object;
 * - `NoOwnerReference`: removing a reference the object does not have;
 * - `NotController`: removing a controller reference from an owner that is not the controller.
 */
export type OwnerReferenceErrorReason =
  | 'NamespacedOwnerOfClusterScopedObject'
  | 'CrossNamespaceOwner'
  | 'NoOwnerReference'
  | 'NotController';

/** The error of the owner-reference helpers; `reason` tells which check failed. */
export class OwnerReferenceError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: OwnerReferenceErrorReason;

  constructor(reason: OwnerReferenceErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
