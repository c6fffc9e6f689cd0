import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { parseBindAddress } from './bind-address.js';

describe('parseBindAddress', () => {
  it.each([
    [':8080', { host: undefined, port: 8080 }],
    ['127.0.0.1:0', { host: '127.0.0.1', port: 0 }],
    ['[::1]:8081', { host: '::1', port: 8081 }],
    ['localhost:9000', { host: 'localhost', port: 9000 }],
  ])('reads %s as controller-runtime does', (value, expected) => {
    expect(parseBindAddress('metricsBindAddress', value)).toEqual(expected);
  });

  it("turns the endpoint off for '0' and ''", () => {
    expect(parseBindAddress('metricsBindAddress', '0')).toBeUndefined();
    expect(parseBindAddress('metricsBindAddress', '')).toBeUndefined();
  });

  it.each(['8080', 'host', ':', ':65536', '::1:80', 8080])(
    'rejects %s naming the option',
    (value) => {
      expect(() => parseBindAddress('healthProbeBindAddress', value)).toThrow(InvalidArgumentError);
      expect(() => parseBindAddress('healthProbeBindAddress', value)).toThrow(
        /healthProbeBindAddress/,
      );
    },
  );
});
