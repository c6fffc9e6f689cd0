import { describe, expect, it } from 'vitest';
import { CdiError } from './cdi-error.js';
import { formatQualifiedName, isQualifiedName, parseQualifiedName } from './qualified-name.js';

describe('CDI qualified device names', () => {
  it('parses vendor/class=name into its parts and formats them back', () => {
    const id = 'k8s.gpu.example.com/gpu=claim-1234:gpu-0';
    const parts = parseQualifiedName(id);
    expect(parts).toEqual({
      vendor: 'k8s.gpu.example.com',
      class: 'gpu',
      name: 'claim-1234:gpu-0',
    });
    expect(formatQualifiedName(parts.vendor, parts.class, parts.name)).toBe(id);
  });

  it('accepts a device name starting with a digit and one-letter parts', () => {
    expect(isQualifiedName('a/b=0')).toBe(true);
    expect(isQualifiedName('vendor.com/class_1.x=123e4567-e89b-12d3')).toBe(true);
  });

  it.each([
    ['gpu0', 'missing vendor'],
    ['/dev/gpu0', 'missing vendor'],
    ['vendor.com=gpu0', 'missing vendor'],
    ['vendor.com/=gpu0', 'missing class'],
    ['vendor.com/gpu=', 'missing device name'],
    ['1vendor/gpu=x', 'invalid vendor "1vendor": should start with a letter'],
    ['vendor-/gpu=x', 'should end with a letter or digit'],
    ['vendor/gpu:x=y', 'invalid class "gpu:x": invalid character \':\''],
    ['vendor/a/b=y', "invalid character '/'"],
    ['vendor/gpu=-x', 'invalid device name "-x": should start with a letter or digit'],
    ['vendor/gpu=x y', "invalid character ' '"],
    ['vendor/gpu=x:', 'should end with a letter or digit'],
  ])('rejects %j: %s', (id, message) => {
    expect(() => parseQualifiedName(id)).toThrow(message);
    expect(() => parseQualifiedName(id)).toThrow(CdiError);
    expect(isQualifiedName(id)).toBe(false);
  });

  it('names the whole ID and the part in the error, with reason InvalidDeviceId', () => {
    try {
      parseQualifiedName('vendor/gpu=x y');
      expect.unreachable();
    } catch (error) {
      expect(CdiError.isInstance(error)).toBe(true);
      expect((error as CdiError).reason).toBe('InvalidDeviceId');
      expect((error as CdiError).message).toBe(
        'invalid device ID "vendor/gpu=x y": invalid device name "x y": invalid character \' \'',
      );
    }
  });

  it('formatQualifiedName validates each part', () => {
    expect(() => formatQualifiedName('vendor', 'gpu', 'bad name')).toThrow('invalid device name');
    expect(() => formatQualifiedName('', 'gpu', 'x')).toThrow('invalid vendor: empty name');
  });
});
