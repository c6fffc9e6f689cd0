//! The error of an owner reference the apiserver's garbage collector would not honour.

const marker = Symbol.for('@ctrlkit/runtime/OwnerReferenceError');

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
export class OwnerReferenceError extends Error {
  /** What a program can branch on. */
  readonly reason: OwnerReferenceErrorReason;
  readonly [marker] = true;

  constructor(reason: OwnerReferenceErrorReason, message: string) {
    super(message);
    this.name = 'OwnerReferenceError';
    this.reason = reason;
  }

  /** True for any OwnerReferenceError, also one made by another copy of this package. */
  static isInstance(value: unknown): value is OwnerReferenceError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}
