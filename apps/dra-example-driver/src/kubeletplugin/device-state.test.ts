import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResourceClaim } from '@ctrlkit/dra-kubeletplugin';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GPU_CONFIG_API_VERSION } from '../gpu-config/gpu-config.js';
import { CheckpointError } from './checkpoint.js';
import { DeviceState, PrepareError } from './device-state.js';

let dir: string;
let cdiRoot: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'device-state-'));
  cdiRoot = join(dir, 'cdi');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const open = () =>
  DeviceState.open({
    nodeName: 'node-a',
    cdiRoot,
    checkpointDirectory: dir,
    allocatable: new Set(['gpu-0', 'gpu-1']),
  });

function claim(uid: string, devices: string[], config: object[] = []): ResourceClaim {
  return {
    metadata: { uid, namespace: 'ns', name: `claim-${uid}` },
    spec: {},
    status: {
      allocation: {
        devices: {
          results: devices.map((device) => ({
            request: 'gpu',
            driver: 'gpu.example.com',
            pool: 'node-a',
            device,
          })),
          config,
        },
      },
    },
  } as ResourceClaim;
}

const specOf = async (uid: string) =>
  JSON.parse(await readFile(join(cdiRoot, `k8s.gpu.example.com-gpu_${uid}.json`), 'utf8'));

describe('DeviceState', () => {
  it('writes the common spec on open', async () => {
    await open();
    expect(
      JSON.parse(await readFile(join(cdiRoot, 'k8s.gpu.example.com-gpu_common.json'), 'utf8')),
    ).toEqual({
      cdiVersion: '0.3.0',
      kind: 'k8s.gpu.example.com/gpu',
      devices: [
        {
          name: 'common',
          containerEdits: {
            env: ['KUBERNETES_NODE_NAME=node-a', 'DRA_RESOURCE_DRIVER_NAME=gpu.example.com'],
          },
        },
      ],
      containerEdits: {},
    });
  });

  it('prepare writes one CDI spec for the claim with GPU_DEVICE_<n> and the sharing settings', async () => {
    const state = await open();
    const spacePartitioning = {
      source: 'FromClaim',
      opaque: {
        driver: 'gpu.example.com',
        parameters: {
          apiVersion: GPU_CONFIG_API_VERSION,
          kind: 'GpuConfig',
          sharing: {
            strategy: 'SpacePartitioning',
            spacePartitioningConfig: { partitionCount: 2 },
          },
        },
      },
    };
    const devices = await state.prepare(claim('u1', ['gpu-1'], [spacePartitioning]));
    expect(devices.map((d) => d.cdiDeviceIds)).toEqual([
      ['k8s.gpu.example.com/gpu=common', 'k8s.gpu.example.com/gpu=u1-gpu-1'],
    ]);
    expect((await specOf('u1')).devices).toEqual([
      {
        name: 'u1-gpu-1',
        containerEdits: {
          env: [
            'GPU_DEVICE_GPU_1_RESOURCE_CLAIM=u1',
            'DRA_ADMIN_ACCESS=false',
            'GPU_DEVICE_1=gpu-1',
            'GPU_DEVICE_1_SHARING_STRATEGY=SpacePartitioning',
            'GPU_DEVICE_1_PARTITION_COUNT=2',
          ],
        },
      },
    ]);
  });

  it('after a restart, prepare is idempotent and unprepare still removes the spec', async () => {
    const first = await open();
    const devices = await first.prepare(claim('u1', ['gpu-0']));
    const restarted = await open();
    expect(await restarted.prepare(claim('u1', ['gpu-0']))).toEqual(devices);
    expect(Object.keys(await restarted.preparedClaims())).toEqual(['u1']);
    await restarted.unprepare('u1');
    expect((await readdir(cdiRoot)).sort()).toEqual(['k8s.gpu.example.com-gpu_common.json']);
    expect(await (await open()).preparedClaims()).toEqual({});
  });

  it('refuses a device already prepared for another claim, with a clear error', async () => {
    const state = await open();
    await state.prepare(claim('u1', ['gpu-0']));
    const refused = state.prepare(claim('u2', ['gpu-1', 'gpu-0']));
    await expect(refused).rejects.toThrow(PrepareError);
    await expect(state.prepare(claim('u2', ['gpu-1', 'gpu-0']))).rejects.toThrow(
      'GPU gpu-0 is already prepared for claim ns/claim-u1 (u1)',
    );
    expect(Object.keys(await state.preparedClaims())).toEqual(['u1']);
    await state.unprepare('u1');
    expect((await state.prepare(claim('u2', ['gpu-1', 'gpu-0']))).map((d) => d.deviceName)).toEqual(
      ['gpu-1', 'gpu-0'],
    );
  });

  it("refuses a device that is not the node's, and an invalid GpuConfig", async () => {
    const state = await open();
    await expect(state.prepare(claim('u1', ['gpu-7']))).rejects.toThrow(
      'requested GPU is not allocatable: gpu-7',
    );
    const bad = {
      source: 'FromClaim',
      opaque: { driver: 'gpu.example.com', parameters: { kind: 'GpuConfig' } },
    };
    await expect(state.prepare(claim('u1', ['gpu-0'], [bad]))).rejects.toThrow(
      'status.allocation.devices.config[0].opaque.parameters.apiVersion',
    );
    expect(await state.preparedClaims()).toEqual({});
  });

  it('unprepare of an unknown claim is not an error', async () => {
    await expect((await open()).unprepare('nobody')).resolves.toBeUndefined();
  });

  it('a corrupt checkpoint is refused on open and on prepare, never overwritten', async () => {
    const state = await open();
    await state.prepare(claim('u1', ['gpu-0']));
    const path = join(dir, 'checkpoint.json');
    const text = (await readFile(path, 'utf8')).replace('claim-u1', 'claim-u9');
    await writeFile(path, text);
    await expect(open()).rejects.toThrow(CheckpointError);
    await expect(state.prepare(claim('u2', ['gpu-1']))).rejects.toThrow('checksum mismatch');
    expect(await readFile(path, 'utf8')).toBe(text);
  });
});
