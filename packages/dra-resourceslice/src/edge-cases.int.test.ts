// Two edge cases checked against v0.35 by reading its source: a negative pool generation
// (ignored, as upstream) and taints without `timeAdded` over a device with several old
// taints (ours keeps every old time; upstream keeps only the last, see the README's
// "Differences from Go").

import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { KubeConfig } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { attrs, device, iso, runScenario, timeAdded } from '../test/scenario-runner.js';

let kubeConfig: KubeConfig;
beforeAll(() => {
  kubeConfig = testKubeConfig();
});

describe('pool generation below the published one', () => {
  it('a negative generation on a new pool publishes at generation 1, as v0.35', async () => {
    await runScenario(kubeConfig, {
      resources: (e) => ({
        pools: { [e.pool]: { generation: -5, slices: [{ devices: [device('device')] }] } },
      }),
      stats: { numCreates: 1 },
      check: (slices, e) => {
        expect(slices.map((s) => s.spec?.pool)).toEqual([
          { name: e.pool, generation: 1, resourceSliceCount: 1 },
        ]);
      },
    });
  });

  it('a negative generation over a published pool changes nothing', async () => {
    await runScenario(kubeConfig, {
      initial: () => [{ name: 's1', spec: { devices: [device('device')] } }],
      resources: (e) => ({
        pools: { [e.pool]: { generation: -1, slices: [{ devices: [device('device')] }] } },
      }),
      stats: {},
      check: (slices) => expect(slices.map((s) => s.spec?.pool?.generation)).toEqual([1]),
    });
  });
});

describe('taints without timeAdded over a device with several old taints', () => {
  it('keeps every old timeAdded (v0.35 keeps only the last one)', async () => {
    const first = new Date(timeAdded.getTime() - 120_000);
    const second = new Date(timeAdded.getTime() - 60_000);
    const oldTaints = [
      { key: 'example.com/a', effect: 'NoSchedule', timeAdded: iso(first) as unknown as Date },
      { key: 'example.com/b', effect: 'NoExecute', timeAdded: iso(second) as unknown as Date },
    ];
    await runScenario(kubeConfig, {
      initial: () => [{ name: 's1', spec: { devices: [device('device', { taints: oldTaints })] } }],
      resources: (e) => ({
        pools: {
          [e.pool]: {
            generation: 1,
            slices: [
              {
                devices: [
                  device('device', {
                    attributes: attrs, // the change that makes the controller update the slice
                    taints: [
                      { key: 'example.com/a', effect: 'NoSchedule' },
                      { key: 'example.com/b', effect: 'NoExecute' },
                    ],
                  }),
                ],
              },
            ],
          },
        },
      }),
      stats: { numUpdates: 1 },
      check: (slices) => {
        const published = slices[0]?.spec?.devices?.[0];
        expect(published?.attributes).toEqual(attrs);
        const times = (published?.taints ?? []).map((t) => Date.parse(String(t.timeAdded)));
        // v0.35 sends the first taint without a time, so the apiserver would stamp it now.
        expect(times).toEqual([first.getTime(), second.getTime()]);
      },
    });
  });
});
