import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  decodeProtobuf,
  decodeProtobufWatchEvent,
  isProtobufGroupVersion,
  ProtobufDecodeError,
} from './decode.js';

interface Fixture {
  name: string;
  watch?: boolean;
  proto: string;
  json: string;
}

// Written by tooling/protobuf-schema (`pnpm --filter @ctrlkit/runtime generate:protobuf`):
// hand-written samples and one randomly filled object of every kind, each as the apiserver
// encodes it in protobuf and in JSON.
const fixtures: Fixture[] = JSON.parse(
  gunzipSync(
    readFileSync(new URL('../../test/fixtures/protobuf/golden.json.gz', import.meta.url)),
  ).toString('utf8'),
);

const bytes = (fixture: Fixture) => new Uint8Array(Buffer.from(fixture.proto, 'base64'));

describe('decodeProtobuf', () => {
  it('has fixtures for the samples and for every kind', () => {
    expect(fixtures.filter((f) => f.name.startsWith('sample')).length).toBeGreaterThanOrEqual(13);
    expect(fixtures.filter((f) => f.name.startsWith('random')).length).toBeGreaterThan(500);
  });

  it.each(fixtures.filter((f) => !f.watch).map((f) => [f.name, f] as const))(
    'decodes %s as JSON.parse of its JSON',
    (_name, fixture) => {
      expect(decodeProtobuf(bytes(fixture))).toStrictEqual(JSON.parse(fixture.json));
    },
  );

  it.each(fixtures.filter((f) => f.watch).map((f) => [f.name, f] as const))(
    'decodes the watch frame %s as JSON.parse of its line',
    (_name, fixture) => {
      expect(decodeProtobufWatchEvent(bytes(fixture))).toStrictEqual(JSON.parse(fixture.json));
    },
  );
});

describe('dropManagedFields', () => {
  /** `object` (JSON-shaped) with every `metadata.managedFields` removed, nested objects included. */
  const withoutManagedFields = (value: unknown, key = ''): unknown => {
    if (Array.isArray(value)) return value.map((item) => withoutManagedFields(item));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (key === 'metadata' && k === 'managedFields') continue;
      out[k] = withoutManagedFields(v, k);
    }
    return out;
  };
  const withManagedFields = fixtures.filter((f) => f.json.includes('"managedFields":['));

  it('leaves every metadata.managedFields out, and nothing else, from objects and watch frames', () => {
    expect(withManagedFields.length).toBeGreaterThan(10);
    for (const fixture of withManagedFields) {
      const decode = fixture.watch ? decodeProtobufWatchEvent : decodeProtobuf;
      const decoded = decode(bytes(fixture), { dropManagedFields: true });
      expect(decoded, fixture.name).toStrictEqual(withoutManagedFields(JSON.parse(fixture.json)));
      // The next decode keeps them again.
      expect(decode(bytes(fixture)), fixture.name).toStrictEqual(JSON.parse(fixture.json));
    }
  });
});

describe('isProtobufGroupVersion', () => {
  it('knows the built-in group-versions and nothing else', () => {
    expect(isProtobufGroupVersion('v1')).toBe(true);
    expect(isProtobufGroupVersion('apps/v1')).toBe(true);
    expect(isProtobufGroupVersion('resource.k8s.io/v1')).toBe(true);
    expect(isProtobufGroupVersion('example.com/v1')).toBe(false);
    expect(isProtobufGroupVersion('apiextensions.k8s.io/v1')).toBe(false);
    expect(isProtobufGroupVersion('toString')).toBe(false);
    // Table's cells are Go interface{} values: its group-version is not decodable as a
    // whole, though PartialObjectMetadata and its list are.
    expect(isProtobufGroupVersion('meta.k8s.io/v1')).toBe(false);
  });
});

describe('malformed protobuf', () => {
  const configMap = bytes(fixtures.find((f) => f.name === 'sample v1 ConfigMap')!);

  const decodeError = (body: Uint8Array): ProtobufDecodeError => {
    try {
      decodeProtobuf(body);
    } catch (error) {
      expect(ProtobufDecodeError.isInstance(error)).toBe(true);
      expect((error as ProtobufDecodeError).reason).toBe('ProtobufDecode');
      return error as ProtobufDecodeError;
    }
    throw new Error('decoded');
  };

  it('rejects a body without the magic', () => {
    expect(decodeError(new TextEncoder().encode('{"kind":"Pod"}')).message).toMatch(
      /does not start with the k8s\\0 magic \(got 7b 22 6b 69\)/,
    );
    expect(decodeError(new Uint8Array()).message).toMatch(/an empty body/);
  });

  it('rejects every truncation of the object', () => {
    // The last 4 bytes are the envelope's empty contentEncoding and contentType, optional.
    for (let length = 5; length < configMap.length - 4; length++) {
      expect(() => decodeProtobuf(configMap.subarray(0, length))).toThrow(ProtobufDecodeError);
    }
  });

  it('names an unknown apiVersion and kind', () => {
    const body = envelope('example.com/v1', 'Widget', []);
    expect(decodeError(body).message).toMatch(
      /no schema for apiVersion "example.com\/v1" kind "Widget"/,
    );
  });

  it('names the field whose wire type is wrong', () => {
    // ConfigMap field 1 (metadata) sent as a varint.
    const body = envelope('v1', 'ConfigMap', [0x08, 0x01]);
    expect(decodeError(body).message).toMatch(
      /core\/v1\.ConfigMap\.metadata has wire type 0, expected 2/,
    );
  });

  it('rejects a watch frame whose object is cut short', () => {
    const frame = bytes(fixtures.find((f) => f.watch)!);
    expect(() => decodeProtobufWatchEvent(frame.subarray(0, frame.length - 3))).toThrow(
      ProtobufDecodeError,
    );
  });
});

describe('watch frames: the object is read where it lies in the frame', () => {
  // ConfigMap { metadata { name: "cm" } }
  const configMap = [0x0a, 0x04, 0x0a, 0x02, 0x63, 0x6d];
  /** WatchEvent { type, object: RawExtension { raw: object } } and then `after`. */
  const frame = (type: string, object: Uint8Array, after: number[] = []): number[] => {
    const typeBytes = [...new TextEncoder().encode(type)];
    const raw = [0x0a, object.length, ...object];
    return [0x0a, typeBytes.length, ...typeBytes, 0x12, raw.length, ...raw, ...after];
  };

  it('decodes a frame that is a Buffer inside a larger chunk, with a field after the object', () => {
    // An unknown WatchEvent field 3 after the object: skipped, as Go does.
    const event = frame('MODIFIED', envelope('v1', 'ConfigMap', configMap), [0x1a, 3, 1, 2, 3]);
    const chunk = Buffer.from([0xff, 0xff, 0xff, ...event, 0xff, 0xff]);
    expect(decodeProtobufWatchEvent(chunk.subarray(3, 3 + event.length))).toStrictEqual({
      type: 'MODIFIED',
      object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm' } },
    });
  });

  it('rejects an object whose envelope claims more bytes than its RawExtension holds', () => {
    const object = envelope('v1', 'ConfigMap', configMap);
    // The envelope's raw length (its second-to-last length byte) claims 40 more bytes; the
    // frame has them after the RawExtension, but they are not the object's.
    const lying = object.slice();
    lying[lying.length - configMap.length - 1] = configMap.length + 40;
    const event = frame('ADDED', lying, [0x1a, 60, ...new Array<number>(60).fill(0)]);
    expect(() => decodeProtobufWatchEvent(Buffer.from(event))).toThrow(/truncated/);
  });
});

/** `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw}. */
function envelope(apiVersion: string, kind: string, raw: number[]): Uint8Array {
  const text = (field: number, value: string) => {
    const b = [...new TextEncoder().encode(value)];
    return [(field << 3) | 2, b.length, ...b];
  };
  const typeMeta = [...text(1, apiVersion), ...text(2, kind)];
  return new Uint8Array([
    0x6b,
    0x38,
    0x73,
    0x00,
    0x0a,
    typeMeta.length,
    ...typeMeta,
    0x12,
    raw.length,
    ...raw,
  ]);
}
