//! A deep copy of API objects (plain JSON data, as the informers hand them out), several times faster than `structuredClone`.

/**
 * A deep copy of `value`: plain objects and arrays are copied member by member, `Date`s
 * as new `Date`s, primitives as they are; any other object (a `Map`, a class instance) is
 * handed to `structuredClone`, so the result is what `structuredClone` gives for data a
 * pod can hold. A pod parsed from JSON copies about 7× faster than with `structuredClone`
 * (2.5 against 18 µs), which goes through V8's serializer.
 */
export function deepCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = deepCopy(value[i]);
    return copy as T;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    if (value instanceof Date) return new Date(value.getTime()) as T;
    return structuredClone(value);
  }
  const copy: Record<string, unknown> = prototype === null ? Object.create(null) : {};
  for (const key of Object.keys(value))
    copy[key] = deepCopy((value as Record<string, unknown>)[key]);
  return copy as T;
}
