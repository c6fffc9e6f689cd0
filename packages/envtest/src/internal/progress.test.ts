import { describe, expect, it } from 'vitest';
import { createProgress, formatProgress } from './progress.js';

function recorder() {
  const lines: string[] = [];
  const log = (_: object, message?: string) => {
    lines.push(message ?? '');
  };
  return { lines, logger: { debug: log, info: log, warn: log, error: log } };
}

describe('download progress', () => {
  it('formats a bar with percent and sizes, or just the size when the total is unknown', () => {
    expect(formatProgress('a.tar.gz', 52_428_800, 104_857_600)).toBe(
      `a.tar.gz  50% [${'#'.repeat(15)}${' '.repeat(15)}] 50.0 MB/100.0 MB`,
    );
    expect(formatProgress('a.tar.gz', 1_048_576, undefined)).toBe('a.tar.gz 1.0 MB');
  });

  it('redraws one line on a terminal, at most every 100 ms, and ends it', () => {
    let now = 0;
    const written: string[] = [];
    const { lines, logger } = recorder();
    const progress = createProgress(
      'a',
      100,
      logger,
      { isTTY: true, write: (t) => written.push(t) },
      () => now,
    );
    progress.update(10);
    now = 50;
    progress.update(20); // too soon
    now = 150;
    progress.update(100);
    now = 2_000;
    progress.done();
    expect(written).toHaveLength(3);
    expect(written[0]).toMatch(/^\ra {2}10% \[###/);
    expect(written[2]).toMatch(/^\ra 100% \[#{30}\] 0\.0 MB\/0\.0 MB in 2\.0 s\n$/);
    expect(lines).toEqual([]);
  });

  it('logs a line every 5 s and the total without a terminal', () => {
    let now = 0;
    const { lines, logger } = recorder();
    const progress = createProgress('a', 100, logger, { isTTY: false, write: () => {} }, () => now);
    progress.update(10);
    now = 1_000;
    progress.update(20);
    now = 6_000;
    progress.update(60);
    progress.done();
    expect(lines).toEqual([
      `downloading a  10% [###${' '.repeat(27)}] 0.0 MB/0.0 MB`,
      `downloading a  60% [${'#'.repeat(18)}${' '.repeat(12)}] 0.0 MB/0.0 MB`,
      'downloaded a (0.0 MB) in 6.0 s',
    ]);
  });
});
