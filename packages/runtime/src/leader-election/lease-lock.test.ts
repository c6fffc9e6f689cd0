import { InvalidArgumentError } from '@ctrlkit/core';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { LeaseLock } from './lease-lock.js';

describe('LeaseLock', () => {
  it.each([
    [{ namespace: '', name: 'l', identity: 'a' }, 'namespace'],
    [{ namespace: 'ns', name: '', identity: 'a' }, 'name'],
    [{ namespace: 'ns', name: 'l', identity: 'a' }, 'client'],
  ])('rejects %o naming the field %s', (options, field) => {
    let error: unknown;
    try {
      new LeaseLock(options);
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).field).toBe(field);
  });

  it('refuses to update before it has read or created the Lease', async () => {
    const lock = new LeaseLock({
      namespace: 'ns',
      name: 'l',
      identity: 'a',
      client: new KubeConfig(),
    });
    const now = new Date();
    await expect(
      lock.update({
        holderIdentity: 'a',
        leaseDurationSeconds: 1,
        acquireTime: now,
        renewTime: now,
        leaderTransitions: 0,
      }),
    ).rejects.toThrow(/call get or create first/);
    expect(lock.describe()).toBe('ns/l');
    expect(lock.identity()).toBe('a');
  });
});
