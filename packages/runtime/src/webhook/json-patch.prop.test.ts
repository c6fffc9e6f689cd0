import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonPatchOperation } from '../apply/object-writer.js';
import { createJsonPatch } from './json-patch.js';

/** An RFC 6902 applier for add/remove/replace, written from the RFC, independent of the differ. */
function applyPatch(document: unknown, operations: readonly JsonPatchOperation[]): unknown {
  let root = structuredClone(document);
  for (const operation of operations) {
    if (operation.path === '') {
      if (operation.op === 'remove') throw new Error('cannot remove the root');
      root = structuredClone(operation.value);
      continue;
    }
    const tokens = operation.path
      .slice(1)
      .split('/')
      .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop() as string;
    let parent = root as Record<string, unknown> | unknown[];
    for (const token of tokens) {
      const next = Array.isArray(parent) ? parent[Number(token)] : parent[token];
      if (typeof next !== 'object' || next === null)
        throw new Error(`no parent at ${operation.path}`);
      parent = next as Record<string, unknown> | unknown[];
    }
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (!(index >= 0 && index <= parent.length)) throw new Error(`bad index ${operation.path}`);
      if (operation.op === 'add') parent.splice(index, 0, structuredClone(operation.value));
      else if (index >= parent.length) throw new Error(`no element at ${operation.path}`);
      else if (operation.op === 'remove') parent.splice(index, 1);
      else parent[index] = structuredClone(operation.value);
    } else {
      const exists = Object.hasOwn(parent, last);
      if (operation.op !== 'add' && !exists) throw new Error(`no member at ${operation.path}`);
      if (operation.op === 'remove') delete parent[last];
      else parent[last] = structuredClone(operation.value);
    }
  }
  return root;
}

// Keys that need escaping, and values that change type, are the interesting cases.
const key = fc.oneof(fc.constantFrom('a', 'b', 'a/b', '~', '~1', '', '-', '0'), fc.string());
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, 1, 'x'),
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A document and an edit of it, so that the two share most of their structure. */
const pair = json.chain((before) => fc.tuple(fc.constant(before), fc.oneof(json, mutate(before))));

function mutate(value: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(value)) {
    return fc.tuple(fc.nat(value.length), json).map(([i, v]) => {
      const copy = [...value];
      if (i < copy.length) copy[i] = v;
      else copy.push(v);
      return copy;
    });
  }
  if (typeof value === 'object' && value !== null) {
    return fc.tuple(key, fc.option(json, { nil: undefined })).map(([k, v]) => {
      const copy: Record<string, unknown> = { ...value };
      if (v === undefined) delete copy[k];
      else copy[k] = v;
      return copy;
    });
  }
  return json;
}

describe('createJsonPatch', () => {
  it('applying the patch to before gives after (RFC 6902)', () => {
    fc.assert(
      fc.property(pair, ([before, after]) => {
        const patch = createJsonPatch(before, after);
        expect(applyPatch(before, patch)).toEqual(after);
        expect(JSON.parse(JSON.stringify(patch))).toEqual(patch);
      }),
      { numRuns: 2000 },
    );
  });

  it('equal documents give an empty patch', () => {
    fc.assert(
      fc.property(json, (document) => {
        expect(createJsonPatch(document, structuredClone(document))).toEqual([]);
      }),
    );
  });

  it('escapes ~ and / in keys and shortens arrays from the end', () => {
    expect(createJsonPatch({ 'a/b': 1, '~': [1, 2, 3] }, { 'a/b': 2, '~': [1] })).toEqual([
      { op: 'replace', path: '/a~1b', value: 2 },
      { op: 'remove', path: '/~0/2' },
      { op: 'remove', path: '/~0/1' },
    ]);
  });

  it('does not alias the after document', () => {
    const after = { list: [{ x: 1 }] };
    const patch = createJsonPatch({}, after);
    after.list[0]!.x = 2;
    expect(patch).toEqual([{ op: 'add', path: '/list', value: [{ x: 1 }] }]);
  });
});
