import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fnv1a64, fnv1a64Position } from './fnv1a64.js';

/** The textbook definition, with BigInt: the reference the fast version must match. */
function reference(input: string): bigint {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(input)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash;
}

describe('fnv1a64', () => {
  it('matches the published test vectors (Go hash/fnv, New64a)', () => {
    expect(fnv1a64('')).toBe(0xcbf29ce484222325n);
    expect(fnv1a64('a')).toBe(0xaf63dc4c8601ec8cn);
    expect(fnv1a64('foobar')).toBe(0x85944171f73967e8n);
  });

  it('matches the BigInt definition for any string, multi-byte UTF-8 included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 64 }), (input) => {
        expect(fnv1a64(input)).toBe(reference(input));
      }),
    );
  });

  it('gives positions that are safe integers, spread even for keys differing in their last byte', () => {
    const positions = Array.from({ length: 1000 }, (_, i) => fnv1a64Position(`object-${i}`));
    for (const position of positions) expect(Number.isSafeInteger(position)).toBe(true);
    // A quarter of the range each: about 250 per quarter when spread.
    const quarters = [0, 0, 0, 0];
    for (const position of positions) {
      const quarter = Math.floor(position / 2 ** 51);
      quarters[quarter] = (quarters[quarter] ?? 0) + 1;
    }
    for (const count of quarters) expect(count).toBeGreaterThan(180);
  });
});
