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
