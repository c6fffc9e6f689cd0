import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CdiError } from './cdi-error.js';
import { type CdiSpec, minimumRequiredVersion, validateSpec } from './cdi-spec.js';
import {
  findDevice,
  readSpecDirs,
  removeSpec,
  specJson,
  transientSpecName,
  writeSpec,
} from './spec-files.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cdi-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const claimSpec = {
  kind: 'k8s.gpu.example.com/gpu',
  devices: [
    {
      name: 'claim-uid-1-gpu-0',
      containerEdits: { env: ['GPU_DEVICE_0=gpu-0', 'GPU_DEVICE_0_SHARING_STRATEGY=TimeSlicing'] },
    },
  ],
  containerEdits: { env: ['DRA_CLAIM=uid-1'] },
};

describe('CDI spec files', () => {
  it('writes the JSON the Go library writes (field order, empty parts left out) and reads it back', async () => {
    const path = await writeSpec(
      dir,
      claimSpec,
      transientSpecName('k8s.gpu.example.com', 'gpu', 'uid-1'),
    );
    expect(path).toBe(join(dir, 'k8s.gpu.example.com-gpu_uid-1.json'));
    expect(await readFile(path, 'utf8')).toBe(
      '{"cdiVersion":"0.3.0","kind":"k8s.gpu.example.com/gpu","devices":[{"name":"claim-uid-1-gpu-0",' +
        '"containerEdits":{"env":["GPU_DEVICE_0=gpu-0","GPU_DEVICE_0_SHARING_STRATEGY=TimeSlicing"]}}],' +
        '"containerEdits":{"env":["DRA_CLAIM=uid-1"]}}',
    );
    const { specs, errors } = await readSpecDirs([dir]);
    expect(errors).toEqual([]);
    expect(specs).toEqual([{ path, priority: 0, spec: { cdiVersion: '0.3.0', ...claimSpec } }]);
  });

  it('replaces an earlier version atomically and leaves no temp file behind', async () => {
    await writeSpec(dir, claimSpec, 'claim.json');
    const changed = {
      ...claimSpec,
      devices: [{ name: 'other', containerEdits: { env: ['A=1'] } }],
    };
    await writeSpec(dir, changed, 'claim');
    expect(await readdir(dir)).toEqual(['claim.json']);
    const { specs } = await readSpecDirs([dir]);
    expect(specs[0]?.spec.devices.map((d) => d.name)).toEqual(['other']);
  });

  it('refuses an invalid spec without writing anything', async () => {
    const bad = { ...claimSpec, devices: [{ name: 'gpu', containerEdits: { env: ['NOEQUALS'] } }] };
    await expect(writeSpec(dir, bad, 'bad')).rejects.toThrow(
      'device "gpu": invalid environment variable "NOEQUALS"',
    );
    expect(await readdir(dir)).toEqual([]);
    await expect(writeSpec(dir, claimSpec, 'x.yaml')).rejects.toThrow(
      'invalid name: YAML specs are not written',
    );
    await expect(writeSpec(dir, claimSpec, '../x')).rejects.toThrow(
      'invalid name: must be a file name',
    );
  });

  it('removes a spec, and removing one that is gone is no error', async () => {
    await writeSpec(dir, claimSpec, 'claim');
    await removeSpec(dir, 'claim');
    expect(await readdir(dir)).toEqual([]);
    await expect(removeSpec(dir, 'claim')).resolves.toBeUndefined();
  });

  it('reads spec directories: missing ones skipped, bad files reported with their path, later directories win', async () => {
    const second = join(dir, 'second');
    await writeSpec(dir, claimSpec, 'a');
    await writeSpec(
      second,
      {
        ...claimSpec,
        devices: [{ name: 'claim-uid-1-gpu-0', containerEdits: { env: ['WIN=1'] } }],
      },
      'b',
    );
    await writeFile(join(dir, 'broken.json'), '{"cdiVersion":');
    await writeFile(
      join(dir, 'nodevices.json'),
      '{"cdiVersion":"0.3.0","kind":"a.com/b","devices":[]}',
    );
    await writeFile(join(dir, 'static.yaml'), 'cdiVersion: 0.3.0');
    await writeFile(join(dir, 'notes.txt'), 'ignored');
    const { specs, errors } = await readSpecDirs([join(dir, 'missing'), dir, second]);
    expect(specs.map((s) => [s.path, s.priority])).toEqual([
      [join(dir, 'a.json'), 1],
      [join(second, 'b.json'), 2],
    ]);
    expect(errors.map((e) => [e.path, e.reason])).toEqual([
      [join(dir, 'broken.json'), 'InvalidSpec'],
      [join(dir, 'nodevices.json'), 'InvalidSpec'],
      [join(dir, 'static.yaml'), 'InvalidSpec'],
    ]);
    expect(errors[1]?.message).toBe(`${join(dir, 'nodevices.json')}: invalid spec, no devices`);
    const found = findDevice(specs, 'k8s.gpu.example.com/gpu=claim-uid-1-gpu-0');
    expect(found?.device.containerEdits.env).toEqual(['WIN=1']);
    expect(findDevice(specs, 'k8s.gpu.example.com/gpu=nope')).toBeUndefined();
    expect(() => findDevice(specs, 'nope')).toThrow(CdiError);
  });
});

describe('CDI spec validation and version', () => {
  const base: CdiSpec = {
    cdiVersion: '0.3.0',
    kind: 'vendor.com/gpu',
    devices: [{ name: 'gpu0', containerEdits: { env: ['A=1'] } }],
  };

  it('computes the lowest version the content needs, as the Go library', () => {
    expect(minimumRequiredVersion(base)).toBe('0.3.0');
    expect(
      minimumRequiredVersion({
        ...base,
        devices: [{ name: '0', containerEdits: { env: ['A=1'] } }],
      }),
    ).toBe('0.5.0');
    expect(minimumRequiredVersion({ ...base, kind: 'vendor.com/gpu.x' })).toBe('0.6.0');
    expect(minimumRequiredVersion({ ...base, annotations: { a: 'b' } })).toBe('0.6.0');
    expect(
      minimumRequiredVersion({
        ...base,
        containerEdits: { mounts: [{ hostPath: '/a', containerPath: '/b', type: 'bind' }] },
      }),
    ).toBe('0.4.0');
    expect(minimumRequiredVersion({ ...base, containerEdits: { additionalGids: [5] } })).toBe(
      '0.7.0',
    );
  });

  it.each([
    [{ ...base, cdiVersion: '9.9.9' }, 'invalid version "9.9.9"'],
    [{ ...base, kind: 'nokind' }, 'kind "nokind": invalid vendor: empty name'],
    [{ ...base, annotations: { a: 'b' } }, 'the spec version must be at least v0.6.0'],
    [
      { ...base, devices: [base.devices[0], base.devices[0]] },
      'invalid spec, multiple device "gpu0"',
    ],
    [
      { ...base, devices: [{ name: 'gpu0', containerEdits: {} }] },
      'device "gpu0": invalid device, empty device edits',
    ],
    [
      {
        ...base,
        devices: [
          { name: 'g', containerEdits: { deviceNodes: [{ path: '/dev/x', permissions: 'rwx' }] } },
        ],
      },
      'invalid permissions "rwx"',
    ],
    [
      {
        ...base,
        devices: [
          { name: 'g', containerEdits: { hooks: [{ hookName: 'later', path: '/bin/x' }] } },
        ],
      },
      'invalid hook name "later"',
    ],
    [
      {
        ...base,
        devices: [
          { name: 'g', containerEdits: { mounts: [{ hostPath: '/a', containerPath: '' }] } },
        ],
      },
      'invalid mount, empty container path',
    ],
  ] as Array<[CdiSpec, string]>)('rejects %#: %s', (spec, message) => {
    expect(() => validateSpec(spec)).toThrow(message);
  });

  it('serializes device containerEdits even when only device nodes are set', () => {
    const spec: CdiSpec = {
      ...base,
      devices: [{ name: 'g', containerEdits: { deviceNodes: [{ path: '/dev/g' }] } }],
    };
    expect(specJson(spec)).toBe(
      '{"cdiVersion":"0.3.0","kind":"vendor.com/gpu","devices":[{"name":"g","containerEdits":{"deviceNodes":[{"path":"/dev/g"}]}}],"containerEdits":{}}',
    );
  });
});
