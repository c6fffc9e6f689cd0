import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListBodyParser } from './list-body-parser.js';

function parseInChunks(text: string, cuts: number[]): unknown {
  const bytes = Buffer.from(text, 'utf8');
  const parser = new ListBodyParser();
  let at = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    const end = Math.min(cut, bytes.length);
    if (end <= at) continue;
    parser.push(bytes.subarray(at, end));
    at = end;
  }
  if (at < bytes.length) parser.push(bytes.subarray(at));
  return parser.end();
}

const list = {
  kind: 'ConfigMapList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '42', continue: 'abc' },
  items: [
    { metadata: { name: 'a', labels: { x: '}' } }, data: { q: 'say "hi" \\ [', e: '' } },
    { metadata: { name: 'b' }, data: { nested: '{"items":[1]}' }, list: [[{}], []] },
    { metadata: { name: 'ü€𝄞' }, data: {} },
  ],
};

describe('ListBodyParser', () => {
  it('gives the same list as JSON.parse of the whole body, for any cut into chunks (escapes, brackets in strings, multi-byte characters)', () => {
    const text = JSON.stringify(list);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: text.length + 4 }), { maxLength: 30 }), (cuts) => {
        expect(parseInChunks(text, cuts)).toEqual(list);
      }),
      { numRuns: 500 },
    );
    // Every single-byte chunking too.
    expect(
      parseInChunks(
        text,
        Array.from({ length: text.length }, (_, i) => i),
      ),
    ).toEqual(list);
  });

  it('matches JSON.parse for arbitrary JSON items and envelopes, whitespace included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 5 }),
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
        fc.boolean(),
        fc.array(fc.nat({ max: 2000 }), { maxLength: 20 }),
        (items, extra, pretty, cuts) => {
          const { items: _, ...rest } = extra as Record<string, unknown>;
          const body = { ...rest, items };
          const text = JSON.stringify(body, null, pretty ? 2 : undefined);
          expect(parseInChunks(text, cuts)).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('parses items while the body is still arriving', () => {
    const text = JSON.stringify(list);
    const parser = new ListBodyParser();
    const cut = text.indexOf('{"metadata":{"name":"b"');
    parser.push(Buffer.from(text.slice(0, cut)));
    // The first item is complete: parsed already, before the rest arrived.
    expect(parser.itemCount).toBe(1);
    parser.push(Buffer.from(text.slice(cut)));
    expect(parser.end().items).toEqual(list.items);
  });

  it('throws a SyntaxError for a truncated or malformed body', () => {
    const parser = new ListBodyParser();
    parser.push(Buffer.from('{"items":[{"a":1}'));
    expect(() => parser.end()).toThrow(SyntaxError);
    const broken = new ListBodyParser();
    expect(() => broken.push(Buffer.from('{"items":[{"a":tru}]}'))).toThrow(SyntaxError);
  });
});

/** The list as the reflector caches it: managedFields dropped, kind and apiVersion set. */
function asCached(body: {
  kind: string;
  apiVersion: string;
  items: Array<Record<string, unknown>>;
}): unknown {
  return body.items.map((item) => {
    const { kind, apiVersion, metadata, ...rest } = item as {
      kind?: string;
      apiVersion?: string;
      metadata?: Record<string, unknown>;
    };
    const { managedFields: _, ...meta } = metadata ?? {};
    return {
      kind: kind ?? body.kind.slice(0, -4),
      apiVersion: apiVersion ?? body.apiVersion,
      ...(metadata !== undefined && { metadata: meta }),
      ...rest,
    };
  });
}

const managed = [
  {
    manager: 'kubectl',
    operation: 'Update',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:data': { '.': {}, 'f:a]"\\': {} }, 'k:{"type":"Ready"}': {} },
  },
];

const typedList = {
  kind: 'ConfigMapList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '7' },
  items: [
    // managedFields last (as ObjectMeta's JSON has it), first, in the middle, alone, absent.
    { metadata: { name: 'a', namespace: 'n', managedFields: managed }, data: { x: '1' } },
    { metadata: { managedFields: managed, name: 'b' }, data: { managedFields: 'kept' } },
    { metadata: { name: 'c', managedFields: managed, uid: 'u' } },
    { metadata: { managedFields: managed } },
    { metadata: { name: 'e' }, data: { 'x"managedFields":[': '{"metadata":{' } },
    // Items with their own kind and apiVersion (as in a custom resource's list).
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'f', managedFields: managed } },
    // Not at an item's metadata: kept.
    { data: { nested: { metadata: { managedFields: [1] } } }, metadata: { name: 'g' } },
  ],
};

describe('ListBodyParser options', () => {
  it('dropManagedFields and typeMeta give the cached objects, for any cut into chunks', () => {
    const text = JSON.stringify(typedList);
    const expected = asCached(typedList);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: text.length + 4 }), { maxLength: 30 }), (cuts) => {
        const bytes = Buffer.from(text, 'utf8');
        const parser = new ListBodyParser({ dropManagedFields: true, typeMeta: true });
        let at = 0;
        for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
          if (cut <= at || cut > bytes.length) continue;
          parser.push(bytes.subarray(at, cut));
          at = cut;
        }
        parser.push(bytes.subarray(at));
        const parsed = parser.end() as unknown as typeof typedList;
        // What the parser could not recognise (cut at an odd place) the reflector finishes.
        expect(asCached(parsed)).toEqual(expected);
        expect(parsed.metadata).toEqual(typedList.metadata);
      }),
      { numRuns: 500 },
    );
  });

  it('dropManagedFields and typeMeta give the cached objects for arbitrary items and cuts', () => {
    const metadata = fc
      .tuple(
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
        fc.option(fc.array(fc.jsonValue(), { maxLength: 3 }), { nil: undefined }),
        fc.nat(3),
      )
      .map(([fields, managedFields, at]) => {
        const { managedFields: _, ...rest } = fields as Record<string, unknown>;
        const entries = Object.entries(rest);
        if (managedFields !== undefined) entries.splice(at, 0, ['managedFields', managedFields]);
        return Object.fromEntries(entries);
      });
    const item = fc
      .tuple(metadata, fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 2 }), fc.boolean())
      .map(([meta, other, typed]) => {
        const {
          metadata: _m,
          kind: _k,
          apiVersion: _a,
          ...rest
        } = other as Record<string, unknown>;
        return typed
          ? { apiVersion: 'g/v1', kind: 'Widget', metadata: meta, ...rest }
          : { metadata: meta, ...rest };
      });
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 4 }),
        fc.array(fc.nat({ max: 1500 }), { maxLength: 20 }),
        (items, cuts) => {
          const text = JSON.stringify({
            kind: 'WidgetList',
            apiVersion: 'g/v1',
            metadata: {},
            items,
          });
          // What JSON can carry (-0 comes back as 0).
          const body = JSON.parse(text) as typeof typedList;
          const bytes = Buffer.from(text, 'utf8');
          const parser = new ListBodyParser({ dropManagedFields: true, typeMeta: true });
          let at = 0;
          for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
            if (cut <= at || cut > bytes.length) continue;
            parser.push(bytes.subarray(at, cut));
            at = cut;
          }
          parser.push(bytes.subarray(at));
          expect(asCached(parser.end() as unknown as typeof typedList)).toEqual(asCached(body));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves managedFields out of the items of a body in one chunk, and gives them kind and apiVersion first', () => {
    const parser = new ListBodyParser({ dropManagedFields: true, typeMeta: true });
    parser.push(Buffer.from(JSON.stringify(typedList)));
    const items = parser.end().items as Array<Record<string, Record<string, unknown>>>;
    expect(items.map((item) => item.metadata && 'managedFields' in item.metadata)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(items[0]).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'a', namespace: 'n' },
      data: { x: '1' },
    });
    expect(Object.keys(items[0] as object)).toEqual(['kind', 'apiVersion', 'metadata', 'data']);
    // The field of that name elsewhere stays.
    expect(items[1]?.data).toEqual({ managedFields: 'kept' });
    expect(items[6]?.data).toEqual({ nested: { metadata: { managedFields: [1] } } });
    // An item that starts with another key than metadata is left as it came.
    expect(Object.keys(items[6] as object)).toEqual(['data', 'metadata']);
  });

  it('without options, parses the items as they come', () => {
    const parser = new ListBodyParser();
    parser.push(Buffer.from(JSON.stringify(typedList)));
    expect(parser.end()).toEqual(typedList);
  });
});
