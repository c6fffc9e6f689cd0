// The suite's own measures, on made-up samples: what a table cell and an assertion are built on.

import { describe, expect, it } from 'vitest';
import { type HealthSample, healthFigures } from './app-health.js';
import { type ProxiedAnswer, retryAfterMargins } from './recording-proxy.js';
import { type FaultResult, resultsTables } from './results.js';
import { providerCreates } from './virtual-kubelet-work.js';

const sample = (at: number, healthz: number, ...states: string[]): HealthSample => ({
  at,
  healthz,
  states: new Map(states.map((s, i) => [`informer-${i}`, s])),
});

describe('healthFigures', () => {
  it('measures the longest stretch with an informer out of watching, to the next sample with all back', () => {
    const figures = healthFigures([
      sample(0, 200, 'watching', 'watching'),
      sample(250, 200, 'watching', 'backing-off'),
      sample(500, 200, 'listing', 'backing-off'),
      sample(750, 200, 'watching', 'watching'),
      sample(1000, 500, 'listing', 'watching'),
      sample(1250, 200, 'watching', 'watching'),
    ]);
    expect(figures).toEqual({ unwatchedMs: 500, healthzFailed: '1/6' });
  });

  it('counts a stretch still open at the last sample, and ignores samples without an answer', () => {
    expect(
      healthFigures([sample(0, 0), sample(100, 200, 'watching'), sample(300, 200, 'listing')]),
    ).toEqual({ unwatchedMs: 1, healthzFailed: '1/3' });
    expect(healthFigures([sample(0, 200, 'watching')]).unwatchedMs).toBe(0);
    expect(healthFigures([sample(0, 200)])).toEqual({ healthzFailed: '0/1' });
  });
});

describe('retryAfterMargins', () => {
  const answer = (a: Partial<ProxiedAnswer>): ProxiedAnswer => ({
    method: 'PUT',
    path: '/api/v1/namespaces/n/pods/p-1/status',
    sentAt: 0,
    answeredAt: 10,
    status: 200,
    ...a,
  });

  it('pairs each 429 with the same request sent again after it, less its Retry-After', () => {
    const margins = retryAfterMargins([
      answer({ status: 429, retryAfterS: 1, sentAt: 0, answeredAt: 10 }),
      answer({ path: '/api/v1/nodes', sentAt: 20, answeredAt: 30 }),
      answer({ status: 429, retryAfterS: 2, sentAt: 1_015, answeredAt: 1_020 }),
      answer({ sentAt: 3_000, answeredAt: 3_010 }),
    ]);
    expect(margins).toEqual([5, -20]);
  });

  it('skips a 429 that was never sent again, or had no Retry-After', () => {
    expect(
      retryAfterMargins([answer({ status: 429 }), answer({ status: 429, retryAfterS: 1 })]),
    ).toEqual([]);
  });
});

describe('providerCreates', () => {
  it('reads the createPod call that started each pod and counts pods started twice', () => {
    const pod = (containerID: string, restartCount: number) => ({
      status: {
        containerStatuses: [
          { name: 'c', image: 'i', imageID: '', ready: true, containerID, restartCount },
        ],
      },
    });
    expect(
      providerCreates([
        pod('mock://n/a/create-1', 0),
        pod('mock://n/b/create-3', 0),
        pod('mock://n/c/create-2', 1),
      ]),
    ).toEqual({ max: 3, startedTwice: 1 });
  });
});

describe('resultsTables', () => {
  it('makes one table per app with every column, - where a case does not apply', () => {
    const result: FaultResult = {
      app: 'virtual-kubelet',
      fault: '429 from API Priority and Fairness',
      queued: 200,
      reconciled: 200,
      duplicates: 0,
      convergeMs: 2_940,
      requestsPerMinDuring: 1_466.6,
      requestsPerMinAfter: 12,
      conflicts: 0,
      throttled: 42,
      retryAfterMarginMs: 3,
      createsPerPodMax: 1,
      rssBeforeMb: 151.2,
      rssAfterMb: 165.7,
    };
    const tables = resultsTables([result]);
    expect(Object.keys(tables)).toEqual(['virtual-kubelet']);
    const table = tables['virtual-kubelet'];
    expect(table?.rows).toEqual([
      [
        '429 from API Priority and Fairness',
        200,
        200,
        0,
        0,
        null,
        2.9,
        1467,
        12,
        0,
        null,
        42,
        3,
        1,
        null,
        null,
        '151 → 166',
      ],
    ]);
    expect(table?.columns).toHaveLength(table?.rows[0]?.length ?? 0);
  });
});
