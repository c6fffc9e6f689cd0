import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from './invalid-argument-error.js';
import { rejectRenamedOptions } from './renamed-options.js';

const renamed = { leaseDuration: 'leaseDurationMs', retryPeriod: 'retryPeriodMs' };

/** The InvalidArgumentError `rejectRenamedOptions` throws, or undefined. */
function rejection(options: unknown, path?: string): InvalidArgumentError | undefined {
  try {
    rejectRenamedOptions(options, renamed, path);
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) return error;
    throw error;
  }
  return undefined;
}

describe('rejectRenamedOptions', () => {
  it('rejects an old name with an InvalidArgumentError that names the new one', () => {
    const error = rejection({ leaseDurationMs: 1, retryPeriod: 2_000 });
    expect(error?.field).toBe('retryPeriod');
    expect(error?.message).toBe('invalid retryPeriod: renamed to retryPeriodMs');
    expect(error?.reason).toBe('InvalidArgument');
  });

  it('prefixes the field and the new name with the path of a nested options object', () => {
    const error = rejection({ leaseDuration: 0 }, 'leaderElection');
    expect(error?.field).toBe('leaderElection.leaseDuration');
    expect(error?.message).toBe(
      'invalid leaderElection.leaseDuration: renamed to leaderElection.leaseDurationMs',
    );
  });

  it('accepts the new names, an old name left undefined, and anything that is not an object', () => {
    expect(rejection({ leaseDurationMs: 15_000, retryPeriodMs: 2_000 })).toBeUndefined();
    expect(rejection({ leaseDuration: undefined })).toBeUndefined();
    expect(rejection(undefined)).toBeUndefined();
    expect(rejection(null)).toBeUndefined();
    expect(rejection('leaseDuration')).toBeUndefined();
  });
});
