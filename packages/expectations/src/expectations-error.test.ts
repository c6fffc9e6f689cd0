import { InvalidArgumentError as WorkqueueInvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { ExpectationsError } from './expectations-error.js';
import { ExpectationsStore } from './expectations-store.js';
import { InvalidArgumentError } from './index.js';
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
    // What another copy's error carries: the class chain under @ctrlkit/core's brand.
    const brand = Symbol.for('@ctrlkit/core/CtrlkitError');
    const foreign = Object.assign(new Error('from another copy'), {
      [brand]: ['ExpectationsError', 'CtrlkitError'],
    });
    expect(ExpectationsError.isInstance(foreign)).toBe(true);
  });
});

describe('InvalidArgumentError', () => {
  it("is core's, not an ExpectationsError; names the field and the value", () => {
    const store = new ExpectationsStore();
    let err: unknown;
    try {
      store.expectCreations('', ['uid']);
    } catch (e) {
      err = e;
    }
    expect(InvalidArgumentError.isInstance(err)).toBe(true);
    expect(err).toBeInstanceOf(WorkqueueInvalidArgumentError);
    expect(ExpectationsError.isInstance(err)).toBe(false);
    expect(KeyFuncError.isInstance(err)).toBe(false);
    expect((err as InvalidArgumentError).reason).toBe('InvalidArgument');
    expect((err as InvalidArgumentError).field).toBe('controlleeKey');
    expect((err as Error).message).toBe(
      'invalid controlleeKey: expected a non-empty string, got ""',
    );
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
