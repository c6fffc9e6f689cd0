import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSpec } from '@ctrlkit/dra-kubeletplugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCdiEnv, resolveCdiEdits } from './cdi-edits.js';

let dir: string;
const warnings: unknown[] = [];
const logger = {
  warn: (fields: unknown) => warnings.push(fields),
  info: () => {},
  debug: () => {},
  error: () => {},
  trace: () => {},
  fatal: () => {},
  child: () => logger,
} as never;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdi-edits-'));
  await writeSpec(
    join(dir, 'static'),
    {
      kind: 'example.com/gpu',
      containerEdits: { env: ['SPEC=static'] },
      devices: [{ name: 'gpu-0', containerEdits: { env: ['GPU=static-0'] } }],
    },
    'static',
  );
  await writeSpec(
    join(dir, 'dynamic'),
    {
      kind: 'example.com/gpu',
      containerEdits: { env: ['SPEC=dynamic', 'NODE=n1'] },
      devices: [
        { name: 'gpu-0', containerEdits: { env: ['GPU=dynamic-0'] } },
        {
          name: 'gpu-1',
          containerEdits: {
            env: ['GPU_1=yes', 'SPEC=from-device'],
            deviceNodes: [{ path: '/dev/gpu1' }],
          },
        },
      ],
    },
    'dynamic',
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('resolveCdiEdits', () => {
  it("merges the spec's env once, then each device's, the later directory's spec winning; mounts and device nodes are logged", async () => {
    const dirs = [join(dir, 'static'), join(dir, 'dynamic')];
    const { env } = await resolveCdiEdits(
      dirs,
      ['example.com/gpu=gpu-0', 'example.com/gpu=gpu-1'],
      logger,
    );
    expect(env).toEqual({ SPEC: 'from-device', NODE: 'n1', GPU: 'dynamic-0', GPU_1: 'yes' });
    expect(warnings).toEqual([
      expect.objectContaining({ cdi: 'example.com/gpu=gpu-1', edits: ['deviceNodes'] }),
    ]);
  });

  it('names a device no spec defines', async () => {
    await expect(
      resolveCdiEdits([join(dir, 'static')], ['example.com/gpu=gpu-9'], logger),
    ).rejects.toThrow(
      `CDI device example.com/gpu=gpu-9 is not defined by any spec in ${join(dir, 'static')}`,
    );
  });
});

describe('addCdiEnv', () => {
  it("adds each container's devices' env over its own, and leaves containers without devices alone", async () => {
    const containers: Array<{ name: string; env: Record<string, string> }> = [
      { name: 'main', env: { GPU: 'mine', KEEP: '1' } },
      { name: 'side', env: { KEEP: '2' } },
    ];
    await addCdiEnv(
      containers,
      { cdiDevices: { main: ['example.com/gpu=gpu-0'] } },
      {
        specDirs: [join(dir, 'static')],
      },
    );
    expect(containers).toEqual([
      { name: 'main', env: { GPU: 'static-0', KEEP: '1', SPEC: 'static' } },
      { name: 'side', env: { KEEP: '2' } },
    ]);
  });
});
