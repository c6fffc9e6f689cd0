//! apimachinery's `equality.Semantic.DeepEqual` for JSON-shaped API objects.

import { quantitiesEqual } from './quantity.js';

/** Keys whose string values are resource quantities in the resource.k8s.io/v1 types. */
const quantityKeys = new Set(['value', 'default', 'min', 'max', 'step']);
/** Keys whose values are timestamps (a `Date` or an RFC 3339 string). */
const timeKeys = new Set(['timeAdded']);

/** Compares two timestamps given as `Date` or string; the number of ms apart, or NaN. */
export function timeDeltaMs(a: unknown, b: unknown): number {
  return toMs(b) - toMs(a);
}

function toMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') return Date.parse(value);
  return Number.NaN;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function isEmptyMap(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    Object.keys(value).length === 0
  );
}

/** Hooks that override the comparison of one kind of value. */
export interface EqualityOverrides {
  /** Compares two device taints; undefined to fall back to the default comparison. */
  taint?: (a: Record<string, unknown>, b: Record<string, unknown>) => boolean;
}

/**
 * Semantic deep equality: an absent value equals an empty list or map, quantities compare by
 * value, timestamps by instant; `''` equals absent, a `false` or `0` does not (Go pointers).
 */
export function semanticEqual(
  a: unknown,
  b: unknown,
  overrides: EqualityOverrides = {},
  key = '',
): boolean {
  if (a === b) return true;
  const aEmpty = isEmpty(a) || isEmptyMap(a);
  const bEmpty = isEmpty(b) || isEmptyMap(b);
  if (aEmpty && bEmpty) return true;
  if (a === undefined || a === null || b === undefined || b === null) return false;
  if (timeKeys.has(key)) return timeDeltaMs(a, b) === 0;
  if (typeof a === 'string' && typeof b === 'string') {
    return quantityKeys.has(key) ? quantitiesEqual(a, b) : false;
  }
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const itemKey = key === 'validValues' ? 'value' : '';
    for (let i = 0; i < a.length; i++) {
      if (key === 'taints' && overrides.taint) {
        if (!overrides.taint(a[i], b[i])) return false;
      } else if (!semanticEqual(a[i], b[i], overrides, itemKey)) return false;
    }
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k of Object.keys(x)) {
    if (!semanticEqual(x[k], y[k], overrides, k)) return false;
  }
  for (const k of Object.keys(y)) {
    if (!(k in x) && !semanticEqual(undefined, y[k], overrides, k)) return false;
  }
  return true;
}
