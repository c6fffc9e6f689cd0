import { describe, expect, it } from 'vitest';
import { ExpectationsError } from './expectations-error.js';
import { InvalidArgumentError } from './invalid-argument-error.js';
import { KeyFuncError } from './key-func-error.js';

describe('ExpectationsError', () => {
  it('carries a reason and a cause, and is recognised by its guard', () => {
    const cause = new Error('inner');
    const err = new ExpectationsError('KeyFunc', 'boom', { cause });
    expect(err).toBeInstanceOf(Error);
    expect(err.reason).toBe('KeyFunc');
    expect(err.cause).toBe(cause);
    expect(ExpectationsError.isInstance(err)).toBe(true);
    expect(ExpectationsError.isInstance(new Error('x'))).toBe(false);
    expect(ExpectationsError.isInstance(null)).toBe(false);
  });

  it('the guard works without instanceof, as for a second copy of the package', () => {
    const marker = Symbol.for('@ctrlkit/expectations/ExpectationsError');
    const foreign = Object.assign(new Error('from another copy'), { [marker]: true });
    expect(ExpectationsError.isInstance(foreign)).toBe(true);
    const foreignArg = { [Symbol.for('@ctrlkit/expectations/InvalidArgumentError')]: true };
    expect(InvalidArgumentError.isInstance(foreignArg)).toBe(true);
  });
});

describe('InvalidArgumentError', () => {
  it('names the field and the value in a lower-case message', () => {
    const err = new InvalidArgumentError('uids[2]', 7, 'a non-empty string');
    expect(err.reason).toBe('InvalidArgument');
    expect(err.field).toBe('uids[2]');
    expect(err.value).toBe(7);
    expect(err.name).toBe('InvalidArgumentError');
    expect(err.message).toBe('invalid uids[2]: expected a non-empty string, got 7');
    expect(new InvalidArgumentError('key', '', 'x').message).toContain('got ""');
    expect(new InvalidArgumentError('key', [], 'x').message).toContain('got an array');
    expect(new InvalidArgumentError('key', {}, 'x').message).toContain('got an object');
    expect(new InvalidArgumentError('key', undefined, 'x').message).toContain('got undefined');
    expect(new InvalidArgumentError('key', () => {}, 'x').message).toContain('got a function');
  });

  it('is an ExpectationsError but not a KeyFuncError', () => {
    const err = new InvalidArgumentError('key', '', 'x');
    expect(ExpectationsError.isInstance(err)).toBe(true);
    expect(InvalidArgumentError.isInstance(err)).toBe(true);
    expect(KeyFuncError.isInstance(err)).toBe(false);
  });
});

describe('KeyFuncError', () => {
  it('names the key function and keeps the cause', () => {
    const cause = new TypeError('bad');
    const err = new KeyFuncError('controlleeKeyFunc', 'object has no metadata.name', { cause });
    expect(err.reason).toBe('KeyFunc');
    expect(err.keyFunc).toBe('controlleeKeyFunc');
    expect(err.message).toBe('controlleeKeyFunc: object has no metadata.name');
    expect(err.cause).toBe(cause);
    expect(KeyFuncError.isInstance(err)).toBe(true);
    expect(InvalidArgumentError.isInstance(err)).toBe(false);
    expect(ExpectationsError.isInstance(err)).toBe(true);
  });
});
