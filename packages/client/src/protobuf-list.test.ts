import { describe, expect, it } from 'vitest';
import { peekProtobufContinueToken } from './protobuf-list.js';

/** A length-delimited field `n` holding `bytes` (lengths < 128). */
const field = (n: number, bytes: Buffer): Buffer =>
  Buffer.concat([Buffer.from([(n << 3) | 2, bytes.length]), bytes]);
const text = (n: number, value: string): Buffer => field(n, Buffer.from(value));

/** `k8s\0` + runtime.Unknown { typeMeta, raw: ConfigMapList { metadata, items… } }. */
function listAnswer(listMeta: Buffer, items: Buffer = Buffer.alloc(0)): Buffer {
  const typeMeta = field(1, Buffer.concat([text(1, 'v1'), text(2, 'ConfigMapList')]));
  const raw = field(2, Buffer.concat([field(1, listMeta), items]));
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), typeMeta, raw]);
}

describe('peekProtobufContinueToken', () => {
  const withToken = listAnswer(
    Buffer.concat([text(2, '42'), text(3, 'eyJydiI6NDJ9')]),
    text(2, 'an item'),
  );

  it('reads the continue token of the list metadata, before the items', () => {
    expect(peekProtobufContinueToken(withToken)).toBe('eyJydiI6NDJ9');
  });

  it('gives undefined for no token, an empty one, a head cut inside the metadata, and JSON', () => {
    expect(peekProtobufContinueToken(listAnswer(text(2, '42')))).toBeUndefined();
    expect(peekProtobufContinueToken(listAnswer(text(3, '')))).toBeUndefined();
    expect(peekProtobufContinueToken(withToken.subarray(0, withToken.length - 12))).toBeUndefined();
    expect(peekProtobufContinueToken(Buffer.from('{"metadata":{"continue":"x"}}'))).toBeUndefined();
  });

  it('reads the token from a head that ends inside the items', () => {
    expect(peekProtobufContinueToken(withToken.subarray(0, withToken.length - 3))).toBe(
      'eyJydiI6NDJ9',
    );
  });
});
