import { describe, expect, it } from 'vitest';
import type { DriverResources } from './driver-resources.js';
import { InvalidDriverResourcesError } from './invalid-driver-resources-error.js';
import { validateApiLimits } from './validate-api-limits.js';

function problem(
  resources: DriverResources,
  nodeName?: string,
): InvalidDriverResourcesError | undefined {
  try {
    validateApiLimits(resources, { nodeName });
    return undefined;
  } catch (error) {
    if (!InvalidDriverResourcesError.isInstance(error)) throw error;
    return error;
  }
}

const devices = (n: number, extra = {}) =>
  Array.from({ length: n }, (_, i) => ({ name: `gpu-${i}`, ...extra }));

describe('validateApiLimits', () => {
  it('accepts a negative pool generation (ignored, as v0.35), rejects a fraction', () => {
    expect(
      problem({ pools: { p: { generation: -5, slices: [{ devices: [] }] } } }),
    ).toBeUndefined();
    const error = problem({ pools: { p: { generation: 1.5, slices: [{ devices: [] }] } } });
    expect(error?.field).toBe('generation');
    expect(error?.message).toMatch(/generation: must be an integer/);
  });

  it('accepts 128 devices, rejects 129 naming the field', () => {
    expect(problem({ pools: { p: { slices: [{ devices: devices(128) }] } } })).toBeUndefined();
    const error = problem({ pools: { p: { slices: [{ devices: devices(129) }] } } });
    expect(error?.field).toBe('slices[0].devices');
    expect(error?.message).toMatch(/has 129 devices, at most 128/);
  });

  it('allows only 64 devices when a device has taints', () => {
    const taint = { taints: [{ key: 'k', effect: 'NoSchedule' }] };
    expect(
      problem({ pools: { p: { slices: [{ devices: devices(64, taint) }] } } }),
    ).toBeUndefined();
    expect(
      problem({ pools: { p: { slices: [{ devices: devices(65, taint) }] } } })?.message,
    ).toMatch(/at most 64 are allowed when a device has taints/);
  });

  it('names the device with a bad name or attribute', () => {
    expect(problem({ pools: { p: { slices: [{ devices: [{ name: 'GPU_0' }] }] } } })?.field).toBe(
      'slices[0].devices[0].name',
    );
    const error = problem({
      pools: {
        p: {
          slices: [
            { devices: [{ name: 'gpu-0', attributes: { model: { string: 'x', _int: 1 } } }] },
          ],
        },
      },
    });
    expect(error?.message).toContain('device "gpu-0"');
    expect(error?.message).toContain('exactly one of bool, int, string or version');
    expect(
      problem({
        pools: {
          p: { slices: [{ devices: [{ name: 'gpu-0', attributes: { v: { version: '1.0' } } }] }] },
        },
      })?.message,
    ).toContain('semantic version');
  });

  it('rejects perDeviceNodeSelection false, and devices with sharedCounters in one slice', () => {
    expect(
      problem({ pools: { p: { slices: [{ perDeviceNodeSelection: false }] } } })?.message,
    ).toContain('must be either unset or set to true');
    expect(
      problem({
        pools: {
          p: {
            slices: [
              {
                devices: devices(1),
                sharedCounters: [{ name: 'c', counters: { m: { value: '1' } } }],
              },
            ],
          },
        },
      })?.message,
    ).toContain('mutually exclusive');
  });

  it('rejects a nodeSelector with a Node owner, and pool names that are not DNS subdomains', () => {
    const nodeSelector = {
      nodeSelectorTerms: [{ matchFields: [{ key: 'name', operator: 'In', values: ['a'] }] }],
    };
    expect(problem({ pools: { p: { nodeSelector, slices: [] } } }, 'node-a')?.field).toBe(
      'nodeSelector',
    );
    expect(problem({ pools: { p: { nodeSelector, slices: [] } } })).toBeUndefined();
    expect(problem({ pools: { 'Bad Pool': { slices: [] } } })?.message).toContain('DNS subdomain');
    expect(problem({ pools: { 'a.example/b': { slices: [] } } })).toBeUndefined();
  });
});
