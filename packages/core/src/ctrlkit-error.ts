// The base of every error class in ctrlkit: a reason to branch on, a cause, one cross-realm guard.

/** Where an error records the names of its class chain, so guards work across package copies. */
const brand = Symbol.for('@ctrlkit/core/CtrlkitError');

/** A class whose instances {@link CtrlkitError.isInstance} can recognise. */
type ErrorClass<T> = abstract new (...args: never[]) => T;

/**
 * The base of every error ctrlkit throws. `reason` is what a program branches on (each
 * subclass narrows it to a union of string literals), `cause` the error underneath, and
 * `isInstance` a guard that, unlike `instanceof`, also recognises an error made by another
 * copy of the package that defines the class (two versions in one `node_modules`, or a
 * bundled copy).
 *
 * @example
 * ```ts
 * class QuotaError extends CtrlkitError {
 *   readonly reason = 'QuotaExceeded' as const;
 * }
 * try { await work(); } catch (error) {
 *   if (QuotaError.isInstance(error)) backOff();
 * }
 * ```
 */
export abstract class CtrlkitError extends Error {
  /** What a program can branch on, e.g. `InvalidArgument`, `NotFound`. */
  abstract readonly reason: string;
  /** The names of this error's classes, most derived first (read by `isInstance`). */
  readonly [brand]: readonly string[];

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const names: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; ) {
      names.push((c as { name: string }).name);
      c = Object.getPrototypeOf(c);
    }
    this.name = names[0] ?? 'CtrlkitError';
    this[brand] = names;
  }

  /**
   * True when `value` is an instance of this class (or of a subclass), also when it was made
   * by another copy of the package that defines the class. Classes are told apart by name.
   */
  static isInstance<T>(this: ErrorClass<T>, value: unknown): value is T {
    if (typeof value !== 'object' || value === null || !(brand in value)) return false;
    const names = (value as { [brand]: unknown })[brand];
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass the guard is called on.
    return Array.isArray(names) && names.includes(this.name);
  }
}
