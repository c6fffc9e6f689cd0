import { describe, expect, it } from 'vitest';
import { CtrlkitError } from './ctrlkit-error.js';
import { InvalidArgumentError } from './invalid-argument-error.js';

class QuotaError extends CtrlkitError {
  readonly reason = 'QuotaExceeded' as const;
}
class HardQuotaError extends QuotaError {}

describe('CtrlkitError', () => {
  it('names the error after its class, keeps the cause and the reason', () => {
    const cause = new Error('socket hang up');
    const error = new HardQuotaError('too many', { cause });
    expect(error.name).toBe('HardQuotaError');
    expect(error.message).toBe('too many');
    expect(error.cause).toBe(cause);
    expect(error.reason).toBe('QuotaExceeded');
    expect(error).toBeInstanceOf(Error);
  });

  it('isInstance recognises the class and its subclasses, and nothing else', () => {
    const hard = new HardQuotaError('x');
    expect(QuotaError.isInstance(hard)).toBe(true);
    expect(HardQuotaError.isInstance(hard)).toBe(true);
    expect(CtrlkitError.isInstance(hard)).toBe(true);
    expect(HardQuotaError.isInstance(new QuotaError('x'))).toBe(false);
    expect(InvalidArgumentError.isInstance(hard)).toBe(false);
    expect(QuotaError.isInstance(new Error('x'))).toBe(false);
    expect(QuotaError.isInstance(null)).toBe(false);
    expect(QuotaError.isInstance('QuotaError')).toBe(false);
  });

  it('isInstance recognises an error made by another copy of the class (another realm or package copy)', () => {
    // A second, unrelated class of the same name stands in for a second copy of a package.
    const copy = (() => {
      class QuotaError extends CtrlkitError {
        readonly reason = 'QuotaExceeded' as const;
      }
      return new QuotaError('from the other copy');
    })();
    expect(copy instanceof QuotaError).toBe(false);
    expect(QuotaError.isInstance(copy)).toBe(true);
  });

  it('InvalidArgumentError names the field and extends CtrlkitError', () => {
    const error = new InvalidArgumentError('burst', 'expected an integer >= 1, got 0');
    expect(error.message).toBe('invalid burst: expected an integer >= 1, got 0');
    expect(error.field).toBe('burst');
    expect(error.reason).toBe('InvalidArgument');
    expect(error.name).toBe('InvalidArgumentError');
    expect(CtrlkitError.isInstance(error)).toBe(true);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
  });
});
