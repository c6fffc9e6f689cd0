import { InvalidArgumentError, isConflict, isNotFound } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { asNotFound, ErrdefsError, invalidInput, isInvalidInput, notFound } from './errdefs.js';
import { apiError } from './testing.js';

describe('errdefs', () => {
  it('classifies its own errors, wrapped ones, and API status codes', () => {
    expect(isNotFound(notFound('x'))).toBe(true);
    expect(isNotFound(new Error('outer', { cause: notFound('inner') }))).toBe(true);
    expect(isNotFound(apiError(404, 'gone'))).toBe(true);
    expect(isNotFound(new Error('x'))).toBe(false);
    expect(isInvalidInput(invalidInput('bad'))).toBe(true);
    expect(isInvalidInput(new InvalidArgumentError('f', 'bad'))).toBe(true);
    expect(isConflict(apiError(409, 'c'))).toBe(true);
    const wrapped = asNotFound(new Error('plain'));
    expect(wrapped.reason).toBe('NotFound');
    expect(wrapped.message).toBe('plain');
    expect(ErrdefsError.isInstance(wrapped)).toBe(true);
    expect(ErrdefsError.isInstance({})).toBe(false);
  });
});
