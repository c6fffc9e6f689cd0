import type { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { nowhere } from '../test/test-server.js';
import { createClient } from './client.js';
import { toClient } from './client-source.js';

describe('toClient', () => {
  it('takes a Client as it is, and one default client per kubeconfig object', () => {
    const kubeConfig = nowhere();
    const client = createClient(kubeConfig);
    expect(toClient(client)).toBe(client);
    const first = toClient(kubeConfig);
    expect(toClient(kubeConfig)).toBe(first);
    expect(first).not.toBe(client);
    expect(toClient(nowhere())).not.toBe(first);
  });

  it('rejects anything else, naming the field', () => {
    expect(() => toClient({} as never, 'podClient')).toThrow(
      expect.objectContaining({ field: 'podClient' }) as InvalidArgumentError,
    );
  });
});
