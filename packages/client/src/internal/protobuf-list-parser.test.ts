import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtobufDecodeError } from '../protobuf/protobuf-decode-error.js';
import { decodeProtobufList } from '../protobuf-list.js';
import type { ListBodyParserOptions } from './list-body-parser.js';
import { ProtobufListParser } from './protobuf-list-parser.js';

interface Fixture {
  name: string;
  watch?: boolean;
  proto: string;
  json: string;
}

// The golden fixtures of the decoder (tooling/protobuf-schema): lists of every kind among them.
const lists: Fixture[] = (
  JSON.parse(
    gunzipSync(
      readFileSync(new URL('../../test/fixtures/protobuf/golden.json.gz', import.meta.url)),
    ).toString('utf8'),
  ) as Fixture[]
).filter((f) => !f.watch && (JSON.parse(f.json) as { items?: unknown }).items !== undefined);

const bodyOf = (fixture: Fixture) => Buffer.from(fixture.proto, 'base64');

function parseInChunks(body: Buffer, size: number, options?: ListBodyParserOptions): unknown {
  const parser = new ProtobufListParser(options);
  for (let at = 0; at < body.length; at += size) parser.push(body.subarray(at, at + size));
  return parser.end();
}

/** The same objects, and their keys in the same order. */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe('ProtobufListParser', () => {
  it('has list fixtures of many kinds', () => {
    expect(lists.length).toBeGreaterThan(100);
  });

  it.each(lists.map((f) => [f.name, f] as const))(
    '%s: in chunks of any size, the list the whole decoder gives',
    (_name, fixture) => {
      const body = bodyOf(fixture);
      for (const options of [{}, { typeMeta: true, dropManagedFields: true }]) {
        const whole = decodeProtobufList(body, options);
        for (const size of [1, 3, 64, body.length]) {
          expectSame(parseInChunks(body, size, options), whole);
        }
      }
    },
  );

  it('decodes each item as soon as its last byte is in, before the body ends', () => {
    const body = bodyOf(lists.find((f) => f.name === 'sample v1 ConfigMapList') as Fixture);
    const counts: number[] = [];
    for (let cut = 0; cut <= body.length; cut++) {
      const parser = new ProtobufListParser();
      parser.push(body.subarray(0, cut));
      counts.push(parser.itemCount);
    }
    const first = counts.indexOf(1);
    const second = counts.indexOf(2);
    expect(counts[body.length]).toBe(2);
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    expect(second).toBeLessThan(body.length);
  });

  it('matches the whole decoder at every cut in two (property)', () => {
    const body = bodyOf(lists.find((f) => f.name === 'sample v1 ConfigMapList') as Fixture);
    const whole = decodeProtobufList(body, { typeMeta: true });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: body.length }), (cut) => {
        const parser = new ProtobufListParser({ typeMeta: true });
        parser.push(body.subarray(0, cut));
        parser.push(body.subarray(cut));
        expectSame(parser.end(), whole);
      }),
    );
  });

  it('matches the whole decoder for any cuts into chunks (property)', () => {
    const body = bodyOf(lists.find((f) => f.name === 'sample v1 ConfigMapList') as Fixture);
    const whole = decodeProtobufList(body, { dropManagedFields: true });
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 })), (cuts) => {
        const parser = new ProtobufListParser({ dropManagedFields: true });
        let at = 0;
        for (const cut of [...cuts.sort((a, b) => a - b), body.length]) {
          parser.push(body.subarray(at, cut));
          at = cut;
        }
        expectSame(parser.end(), whole);
      }),
    );
  });

  it('throws ProtobufDecodeError for a body that ends inside the list', () => {
    const body = bodyOf(lists.find((f) => f.name === 'sample v1 ConfigMapList') as Fixture);
    const parser = new ProtobufListParser();
    parser.push(body.subarray(0, body.length - 5));
    expect(() => parser.end()).toThrow(ProtobufDecodeError);
  });

  it('says what the whole decoder says of a body that is not protobuf', () => {
    const body = Buffer.from('{"kind":"ConfigMapList","items":[]}');
    const parser = new ProtobufListParser();
    parser.push(body);
    expect(() => parser.end()).toThrow(/k8s\\0 magic/);
    expect(() => decodeProtobufList(body)).toThrow(/k8s\\0 magic/);
  });
});
