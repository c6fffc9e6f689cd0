//! A string schema limited to a set of values, in the shape a CRD's structural schema accepts.

import { type TUnsafe, Type } from 'typebox';

/** `{ type: 'string', enum: values }`, typed as the union of `values`. */
export function stringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}
