import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseGoDuration } from './go-duration.js';

describe('parseGoDuration', () => {
  it("reads what Go's time.ParseDuration reads, in ms", () => {
    const cases: Array<[string, number]> = [
      ['0', 0],
      ['-0', 0],
      ['30s', 30_000],
      ['1m30s', 90_000],
      ['500ms', 500],
      ['1h', 3_600_000],
      ['1.5h', 5_400_000],
      ['2h45m', 9_900_000],
      ['-1.5s', -1500],
      ['+5s', 5000],
      ['.5s', 500],
      ['1.s', 1000],
      ['300us', 0.3],
      ['300µs', 0.3],
      ['1000000ns', 1],
      ['1m0s', 60_000],
      ['1h0m0s', 3_600_000],
    ];
    for (const [text, ms] of cases) expect([text, parseGoDuration(text)]).toEqual([text, ms]);
  });

  it('rejects what Go rejects: no unit, an unknown unit, spaces, empty', () => {
    for (const text of [
      '',
      '-',
      '10',
      '1.5',
      's',
      '1d',
      '1 s',
      ' 1s',
      '1s ',
      '1sm',
      '1S',
      '--1s',
      '1e3s',
      'Infinity',
    ]) {
      expect([text, parseGoDuration(text)]).toEqual([text, undefined]);
    }
  });
});

describe('formatGoDuration', () => {
  it("prints as Go's Duration.String", () => {
    const cases: Array<[number, string]> = [
      [0, '0s'],
      [500, '500ms'],
      [1.5, '1.5ms'],
      [0.3, '300µs'],
      [1e-6, '1ns'],
      [1000, '1s'],
      [10_000, '10s'],
      [60_000, '1m0s'],
      [90_500, '1m30.5s'],
      [3_600_000, '1h0m0s'],
      [9_900_000, '2h45m0s'],
      [-1500, '-1.5s'],
    ];
    for (const [ms, text] of cases) expect([ms, formatGoDuration(ms)]).toEqual([ms, text]);
  });

  it('round-trips through parseGoDuration', () => {
    for (const ms of [0, 1, 250, 1000, 59_999, 60_000, 86_400_000, 0.001]) {
      expect(parseGoDuration(formatGoDuration(ms))).toBeCloseTo(ms, 9);
    }
  });
});
