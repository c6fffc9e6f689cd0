import { describe, expect, it } from 'vitest';
import { CpuCounters } from './cpu-counters.js';

describe('CpuCounters', () => {
  it('accumulates usage over time from the start, and the node sums every increase', () => {
    const counters = new CpuCounters();
    expect(counters.accumulate('p/a', 0, 2_000, 1_000_000)).toBe(2_000_000); // 1 ms/s for 2 s
    expect(counters.accumulate('p/a', 0, 3_000, 2_000_000)).toBe(4_000_000);
    expect(counters.accumulate('p/b', 1_000, 3_000, 500_000)).toBe(1_000_000);
    expect(counters.nodeNs).toBe(5_000_000);
    expect(counters.nanoCores('p/a')).toBe(2_000_000);
  });

  it('never decreases: a lower measured total keeps the counter; a forgotten pod stays in the node', () => {
    const counters = new CpuCounters();
    expect(counters.observe('p/a', 9_000, 0)).toBe(9_000);
    expect(counters.observe('p/a', 100, 1)).toBe(9_000);
    counters.forget('p/');
    expect(counters.total('p/a')).toBe(0);
    expect(counters.nodeNs).toBe(9_000);
    counters.observe('q/a', 1_000, 2);
    expect(counters.nodeNs).toBe(10_000);
  });
});
