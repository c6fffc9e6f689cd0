import type { WireDevice } from '@ctrlkit/dra-kubeletplugin/protocol';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { type ClaimInfo, containerCdiDevices } from './claim-info.js';

function info(devices: WireDevice[]): ClaimInfo {
  return {
    claim: { uid: 'u', namespace: 'ns', name: 'c' },
    drivers: ['gpu.example.com'],
    devices,
    prepared: true,
    pods: new Set(),
  };
}

const device = (requestNames: string[], ...cdiDeviceIds: string[]): WireDevice => ({
  requestNames,
  poolName: 'node',
  deviceName: 'gpu-0',
  cdiDeviceIds,
});

describe('containerCdiDevices', () => {
  it("gives each container the CDI IDs of its resources.claims, a request narrowing to that request's devices (and its subrequests)", () => {
    const pod: Wire<V1Pod> = {
      spec: {
        initContainers: [{ name: 'init', resources: { claims: [{ name: 'a', request: 'r2' }] } }],
        containers: [
          { name: 'all', resources: { claims: [{ name: 'a' }, { name: 'b' }] } },
          { name: 'none' },
        ],
      },
    };
    const claims = new Map([
      [
        'a',
        info([device(['r1'], 'v/c=1', 'v/c=common'), device(['r2/sub'], 'v/c=2', 'v/c=common')]),
      ],
      ['b', info([device(['x'], 'v/c=3')])],
    ]);
    expect(containerCdiDevices(pod, claims)).toEqual({
      init: ['v/c=2', 'v/c=common'],
      all: ['v/c=1', 'v/c=common', 'v/c=2', 'v/c=3'],
    });
  });
});
