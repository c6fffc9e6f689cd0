import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CheckpointError,
  checkpointJson,
  fnv32a,
  type PreparedClaims,
  readCheckpoint,
  writeCheckpoint,
} from './checkpoint.js';

const claims: PreparedClaims = {
  'uid-1': {
    namespace: 'ns',
    name: 'claim-1',
    devices: [
      {
        requests: ['gpu'],
        poolName: 'node-a',
        deviceName: 'gpu-0',
        cdiDeviceIds: ['k8s.gpu.example.com/gpu=common', 'k8s.gpu.example.com/gpu=uid-1-gpu-0'],
        adminAccess: false,
        env: ['GPU_DEVICE_0=gpu-0'],
      },
    ],
  },
};

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'checkpoint-'));
  path = join(dir, 'checkpoint.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('checkpoint', () => {
  it('a missing file is an empty checkpoint', async () => {
    expect(await readCheckpoint(path)).toEqual({});
  });

  it('reads back what was written, leaving no temp file', async () => {
    await writeCheckpoint(path, claims);
    expect(await readCheckpoint(path)).toEqual(claims);
    expect(await readdir(dir)).toEqual(['checkpoint.json']);
  });

  it('the checksum is FNV-1a 32 over the JSON with checksum 0', async () => {
    await writeCheckpoint(path, claims);
    const file = JSON.parse(await readFile(path, 'utf8'));
    expect(file.v1.preparedClaims).toEqual(claims);
    expect(file.checksum).toBe(
      fnv32a(JSON.stringify({ checksum: 0, v1: { preparedClaims: claims } })),
    );
    expect(fnv32a('')).toBe(0x811c9dc5);
    expect(fnv32a('a')).toBe(0xe40c292c);
  });

  it('refuses a file whose content does not match its checksum', async () => {
    await writeFile(path, checkpointJson(claims).replace('gpu-0', 'gpu-1'));
    const read = readCheckpoint(path);
    await expect(read).rejects.toThrow(CheckpointError);
    await expect(readCheckpoint(path)).rejects.toThrow(
      /checkpoint .*checkpoint.json: checksum mismatch/,
    );
  });

  it('refuses a torn file and another shape', async () => {
    await writeFile(path, checkpointJson(claims).slice(0, 40));
    await expect(readCheckpoint(path)).rejects.toThrow('not JSON');
    await writeFile(path, JSON.stringify({ v1: { preparedClaims: {} } }));
    await expect(readCheckpoint(path)).rejects.toThrow('expected { checksum: number');
  });
});
