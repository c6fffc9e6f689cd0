import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { formatMicroTime, LeaseLock } from './lease-lock.js';

describe('LeaseLock', () => {
  it('formats MicroTime with six fractional digits, as the apiserver requires', () => {
    expect(formatMicroTime(new Date('2026-11-23T02:29:28.185Z'))).toBe(
      '2026-11-23T02:29:28.185000Z',
    );
    expect(formatMicroTime(new Date('2026-11-23T02:29:28Z'))).toBe('2026-11-23T02:29:28.000000Z');
  });

  it.each([
    [{ namespace: '', name: 'l', identity: 'a' }, 'namespace'],
    [{ namespace: 'ns', name: '', identity: 'a' }, 'name'],
    [{ namespace: 'ns', name: 'l', identity: 'a' }, 'kubeConfig'],
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
    const lock = new LeaseLock({ namespace: 'ns', name: 'l', identity: 'a', api: {} as never });
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
