import { describe, expect, it } from 'vitest';
import { formatMicroTime, formatTime } from './wire.js';

describe('times on the wire', () => {
  it('formats MicroTime with six fractional digits, as the apiserver requires', () => {
    expect(formatMicroTime(new Date('2026-11-23T02:29:28.185Z'))).toBe(
      '2026-11-23T02:29:28.185000Z',
    );
    expect(formatMicroTime(new Date('2026-11-23T02:29:28Z'))).toBe('2026-11-23T02:29:28.000000Z');
    expect(formatMicroTime(Date.parse('2026-11-23T02:29:28.5Z'))).toBe(
      '2026-11-23T02:29:28.500000Z',
    );
  });

  it('formats a metav1.Time in whole seconds, dropping the fraction', () => {
    expect(formatTime(new Date('2026-11-23T02:29:28.999Z'))).toBe('2026-11-23T02:29:28Z');
    expect(formatTime(Date.parse('2026-11-23T02:29:28Z'))).toBe('2026-11-23T02:29:28Z');
  });
});
