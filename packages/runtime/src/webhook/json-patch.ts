//! Computes an RFC 6902 JSON Patch that turns one JSON document into another.

import type { JsonPatchOperation } from '../apply/object-writer.js';

/**
 * The operations that turn `before` into `after` (both plain JSON values: objects, arrays,
 * strings, finite numbers, booleans, null). Objects are compared key by key; arrays index
 * by index, then shortened from the end or extended at the end; a value whose type changes
 * is replaced whole. Keys are escaped as RFC 6901 says (`~` as `~0`, `/` as `~1`).
 *
 * Guarantees: applying the result to `before` (RFC 6902, in order) gives a value deeply
 * equal to `after`; equal documents give `[]`. Object keys whose value is `undefined` are
 * treated as absent, as `JSON.stringify` does.
 */
export function createJsonPatch(before: unknown, after: unknown): JsonPatchOperation[] {
  const operations: JsonPatchOperation[] = [];
  diff(before, after, '', operations);
  return operations;
}

/** Escapes one object key as an RFC 6901 reference token. */
function escapePointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function diff(before: unknown, after: unknown, path: string, out: JsonPatchOperation[]): void {
  if (before === after) return;
  if (Array.isArray(before) && Array.isArray(after)) {
    diffArrays(before, after, path, out);
  } else if (isObject(before) && isObject(after)) {
    diffObjects(before, after, path, out);
  } else {
    out.push({ op: 'replace', path, value: clone(after) });
  }
}

function diffObjects(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  path: string,
  out: JsonPatchOperation[],
): void {
  for (const key of Object.keys(before)) {
    if (before[key] === undefined) continue;
    const child = `${path}/${escapePointerToken(key)}`;
    if (!Object.hasOwn(after, key) || after[key] === undefined)
      out.push({ op: 'remove', path: child });
    else diff(before[key], after[key], child, out);
  }
  for (const key of Object.keys(after)) {
    if (after[key] === undefined) continue;
    if (!Object.hasOwn(before, key) || before[key] === undefined) {
      out.push({ op: 'add', path: `${path}/${escapePointerToken(key)}`, value: clone(after[key]) });
    }
  }
}

function diffArrays(
  before: readonly unknown[],
  after: readonly unknown[],
  path: string,
  out: JsonPatchOperation[],
): void {
  const common = Math.min(before.length, after.length);
  for (let i = 0; i < common; i++) diff(before[i], after[i], `${path}/${i}`, out);
  // Remove from the end first, so each index is still valid when its operation applies.
  for (let i = before.length - 1; i >= common; i--)
    out.push({ op: 'remove', path: `${path}/${i}` });
  for (let i = common; i < after.length; i++) {
    out.push({ op: 'add', path: `${path}/-`, value: clone(after[i]) });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of a JSON value, so that a patch does not alias the document it came from. */
function clone(value: unknown): unknown {
  return value === undefined ? null : structuredClone(value);
}
