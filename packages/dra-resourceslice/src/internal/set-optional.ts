//! Setting an optional field the way Go leaves a nil one out.

/** Sets `obj[key]`, or deletes it when `value` is undefined (an absent field, as Go's nil). */
export function setOptional<T extends object, K extends keyof T>(
  obj: T,
  key: K,
  value: T[K] | undefined,
): void {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
}
