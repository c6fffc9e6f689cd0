import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeProtobuf } from './decode.js';
import { encodeProtobuf, ProtobufEncodeError } from './encode.js';
import { parseDuration } from './parse-go-formats.js';

interface Fixture {
  name: string;
  watch?: boolean;
  proto: string;
  json: string;
}

const fixtures: Fixture[] = JSON.parse(
  gunzipSync(readFileSync(new URL('./fixtures/golden.json.gz', import.meta.url))).toString('utf8'),
);

describe('encodeProtobuf', () => {
  it.each(fixtures.filter((f) => !f.watch).map((f) => [f.name, f] as const))(
    'writes %s so that it decodes back to its JSON (but nulls)',
    (_name, fixture) => {
      const object = JSON.parse(fixture.json);
      const { apiVersion, kind } = decodeProtobuf(Buffer.from(fixture.proto, 'base64')) as {
        apiVersion: string;
        kind: string;
      };
      const body = encodeProtobuf(object, apiVersion, kind);
      // As json.Unmarshal does, a null becomes a nil pointer: not written, so not read back
      // as null either (a non-nil pointer to a zero Time comes back as null in Go's JSON).
      expect(withoutNulls(decodeProtobuf(body))).toStrictEqual(withoutNulls(object));
    },
  );

  it.each(
    fixtures
      .filter((f) => !f.watch && f.name.startsWith('sample'))
      .map((f) => [f.name, f] as const),
  )('writes %s byte for byte as Go does', (name, fixture) => {
    const [, apiVersion, kind] = name.split(' ') as [string, string, string];
    const body = encodeProtobuf(JSON.parse(fixture.json), apiVersion, kind);
    expect(Buffer.from(body).toString('base64')).toBe(fixture.proto);
  });

  it('rejects a field the Go type does not have, naming it', () => {
    expect(() =>
      encodeProtobuf({ metadata: { name: 'a', labelz: {} } }, 'v1', 'ConfigMap'),
    ).toThrow(/metadata\.labelz is not a field of meta\/v1\.ObjectMeta/);
  });

  it('rejects a value of the wrong type and an unknown kind', () => {
    expect(() => encodeProtobuf({ data: { a: 1 } }, 'v1', 'ConfigMap')).toThrow(
      /data\.a must be a string, got 1/,
    );
    expect(() => encodeProtobuf({}, 'example.com/v1', 'Widget')).toThrow(ProtobufEncodeError);
    // The apiserver rejects a MicroTime without its six digits when it comes as JSON.
    expect(() =>
      encodeProtobuf(
        { spec: { renewTime: '2026-11-26T01:02:03Z' } },
        'coordination.k8s.io/v1',
        'Lease',
      ),
    ).toThrow(/spec\.renewTime must be an RFC 3339 time with 6 fractional digits/);
  });
});

/** `value` without the object properties that are null, at every depth. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

describe('parseDuration', () => {
  it.each([
    ['0', 0n],
    ['1ns', 1n],
    ['1.5µs', 1500n],
    ['1.5ms', 1500000n],
    ['1m30s', 90000000000n],
    ['1h1m1.5s', 3661500000000n],
    ['-1m30s', -90000000000n],
    ['2562047h47m16.854775807s', 9223372036854775807n],
  ])('reads %s as Go does', (text, ns) => {
    expect(parseDuration(text)).toBe(ns);
  });

  it('rejects what is not a duration', () => {
    expect(parseDuration('')).toBeUndefined();
    expect(parseDuration('1x')).toBeUndefined();
    expect(parseDuration('5')).toBeUndefined();
  });
});
