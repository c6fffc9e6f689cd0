//! Checks of options and arguments, each failing with an error that names the field.

import { InvalidArgumentError } from '@ctrlkit/core';

/** Rejects anything but a plain object whose keys are all in `allowed`. */
export function checkOptions(value: unknown, field: string, allowed: readonly string[]): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(field, `expected an options object, got ${describe(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new InvalidArgumentError(
        `${field}.${key}`,
        `unknown option (known: ${allowed.join(', ')})`,
      );
    }
  }
}

/** A duration in milliseconds: a finite number, at least `min`. */
export function checkDuration(value: unknown, field: string, min = 0): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new InvalidArgumentError(
      field,
      `expected a finite number of milliseconds >= ${min}, got ${describe(value)}`,
    );
  }
  return value;
}

/** Any finite number (negative included). */
export function checkFinite(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidArgumentError(field, `expected a finite number, got ${describe(value)}`);
  }
  return value;
}

/** An integer, at least `min`. */
export function checkInteger(value: unknown, field: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidArgumentError(field, `expected an integer >= ${min}, got ${describe(value)}`);
  }
  return value;
}

/** A function, when given. */
export function checkFunction(value: unknown, field: string): void {
  if (value !== undefined && typeof value !== 'function') {
    throw new InvalidArgumentError(field, `expected a function, got ${describe(value)}`);
  }
}

/** An object with every one of `methods` as a function. */
export function checkMethods(value: unknown, field: string, methods: readonly string[]): void {
  for (const method of methods) {
    const member = (value as Record<string, unknown> | null | undefined)?.[method];
    if (typeof member !== 'function') {
      throw new InvalidArgumentError(
        `${field}.${method}`,
        `expected a function, got ${describe(member)}`,
      );
    }
  }
}

function describe(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
