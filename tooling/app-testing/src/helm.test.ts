import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  findHelm,
  helmTemplate,
  helmVersion,
  requireHelm,
  sharedObjects,
  sortObjects,
} from './helm.js';

describe('findHelm', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'helm-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function executable(path: string, script = '#!/bin/sh\n'): Promise<string> {
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, script);
    await chmod(path, 0o755);
    return path;
  }

  it('takes CTRLKIT_HELM, then the bootstrap cache of the pinned version, then PATH', async () => {
    const fromPath = await executable(join(dir, 'bin', 'helm'));
    const cached = await executable(
      join(dir, 'cache', 'ctrlkit', 'helm', `v${await helmVersion()}`, 'helm'),
    );
    const chosen = await executable(join(dir, 'chosen', 'helm'));
    const env = { XDG_CACHE_HOME: join(dir, 'cache'), PATH: join(dir, 'bin') };
    expect(await findHelm({ ...env, CTRLKIT_HELM: chosen })).toBe(chosen);
    expect(await findHelm(env)).toBe(cached);
    await rm(cached);
    expect(await findHelm(env)).toBe(fromPath);
    await expect(requireHelm({ XDG_CACHE_HOME: join(dir, 'cache'), PATH: '' })).rejects.toThrow(
      /no helm: .*bootstrap.*CTRLKIT_HELM/,
    );
  });

  it('parses helm template output, dropping documents that hold only comments', async () => {
    const output = [
      '---',
      '# Source: c/templates/a.yaml',
      'apiVersion: v1',
      'kind: ServiceAccount',
      'metadata: { name: b, namespace: n }',
      '---',
      '# Source: c/templates/off.yaml',
      '# a template whose condition is off',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: { name: a, namespace: n }',
    ].join('\n');
    const helm = await executable(
      join(dir, 'fake-helm'),
      `#!/bin/sh\ncat <<'END'\n${output}\nEND\n`,
    );
    const objects = await helmTemplate(helm, 'chart', { release: 'r', namespace: 'n' });
    expect(sortObjects(objects).map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'ConfigMap/a',
      'ServiceAccount/b',
    ]);
  });
});

describe('sharedObjects', () => {
  const object = (kind: string, name: string, namespace?: string) => ({
    apiVersion: 'v1',
    kind,
    metadata: { name, ...(namespace ? { namespace } : {}) },
  });

  it('names what two releases both own: same kind, namespace (or none) and name', () => {
    const first = [
      object('ClusterRole', 'a-app'),
      object('DeviceClass', 'gpu.example.com'),
      object('ServiceAccount', 'app', 'ns-a'),
      object('Role', 'node-lease', 'kube-node-lease'),
    ];
    const second = [
      object('ClusterRole', 'b-app'),
      object('DeviceClass', 'gpu.example.com'),
      object('ServiceAccount', 'app', 'ns-b'),
      object('Role', 'node-lease', 'kube-node-lease'),
      object('ClusterRoleBinding', 'a-app'),
    ];
    expect(sharedObjects(first, second)).toEqual([
      'DeviceClass//gpu.example.com',
      'Role/kube-node-lease/node-lease',
    ]);
    expect(sharedObjects(first.slice(0, 1), second.slice(0, 1))).toEqual([]);
  });
});
