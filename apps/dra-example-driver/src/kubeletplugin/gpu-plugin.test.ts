import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noopLogger } from '@ctrlkit/core';
import type { ResourceClaim } from '@ctrlkit/dra-kubeletplugin';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DeviceState } from './device-state.js';
import { gpuPlugin } from './gpu-plugin.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gpu-plugin-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const claim = (uid: string, device: string) =>
  ({
    metadata: { uid, namespace: 'ns', name: uid },
    spec: {},
    status: {
      allocation: {
        devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'n', device }] },
      },
    },
  }) as ResourceClaim;

it("one claim's error is that claim's: the others of the call are prepared", async () => {
  const state = await DeviceState.open({
    nodeName: 'n',
    cdiRoot: join(dir, 'cdi'),
    checkpointDirectory: dir,
    allocatable: new Set(['gpu-0', 'gpu-1']),
  });
  const plugin = gpuPlugin(state, noopLogger);
  const results = await plugin.prepareResourceClaims([
    claim('a', 'gpu-0'),
    claim('b', 'gpu-9'),
    claim('c', 'gpu-1'),
  ]);
  expect(results.get('a')).toEqual({
    devices: [
      {
        requests: ['gpu'],
        poolName: 'n',
        deviceName: 'gpu-0',
        cdiDeviceIds: ['k8s.gpu.example.com/gpu=common', 'k8s.gpu.example.com/gpu=a-gpu-0'],
      },
    ],
  });
  const b = results.get('b');
  expect(b && 'error' in b && b.error.message).toBe('requested GPU is not allocatable: gpu-9');
  expect(results.get('c')).toHaveProperty('devices');
  const undone = await plugin.unprepareResourceClaims([
    { uid: 'a', namespace: 'ns', name: 'a' },
    { uid: 'x', namespace: 'ns', name: 'gone' },
  ]);
  expect([...undone]).toEqual([
    ['a', null],
    ['x', null],
  ]);
  expect(Object.keys(await state.preparedClaims())).toEqual(['c']);
});
