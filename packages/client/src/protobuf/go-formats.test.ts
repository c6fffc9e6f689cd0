import { describe, expect, it } from 'vitest';
import { formatDuration, formatMicroTime, formatTime } from './go-formats.js';

describe('formatDuration', () => {
  // Expected strings printed by Go 1.26's time.Duration.String.
  it.each([
    [0n, '0s'],
    [1n, '1ns'],
    [999n, '999ns'],
    [1000n, '1µs'],
    [1500n, '1.5µs'],
    [999999n, '999.999µs'],
    [1000000n, '1ms'],
    [1500000n, '1.5ms'],
    [999999999n, '999.999999ms'],
    [1000000000n, '1s'],
    [1500000000n, '1.5s'],
    [59000000000n, '59s'],
    [60000000000n, '1m0s'],
    [90000000000n, '1m30s'],
    [3600000000000n, '1h0m0s'],
    [3661500000000n, '1h1m1.5s'],
    [-1n, '-1ns'],
    [-90000000000n, '-1m30s'],
    [9223372036854775807n, '2562047h47m16.854775807s'],
    [-9223372036854775808n, '-2562047h47m16.854775808s'],
  ])('writes %s ns as Go does', (ns, text) => {
    expect(formatDuration(ns)).toBe(text);
  });
});

describe('formatTime', () => {
  // Expected strings printed by Go's time.Unix(s, 0).UTC().Format(time.RFC3339).
  it.each([
    [0, '1970-01-01T00:00:00Z'],
    [-1, '1969-12-31T23:59:59Z'],
    [1795654923, '2026-11-26T01:02:03Z'],
    [-62135596800 + 1, '0001-01-01T00:00:01Z'],
    [253402300800, '10000-01-01T00:00:00Z'],
  ])('writes %s s as Go does', (seconds, text) => {
    expect(formatTime(seconds)).toBe(text);
    expect(formatTime(seconds)).toBe(text); // again, from the one-entry cache
  });

  it('writes microseconds with six digits, truncating nanoseconds', () => {
    expect(formatMicroTime(1795654923, 1999)).toBe('2026-11-26T01:02:03.000001Z');
    expect(formatMicroTime(1795654923, 123456789)).toBe('2026-11-26T01:02:03.123456Z');
  });
});
