// The manifests in deploy/ pass a server-side dry run against the test apiserver (the
// Namespace is created for real first: a dry run of it would not make it exist for the rest).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { type KubernetesObject, KubernetesObjectApi, loadAllYaml } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

const deploy = join(import.meta.dirname, '..', 'deploy');

it('deploy/ manifests pass a server-side dry run', async () => {
  const api = KubernetesObjectApi.makeApiClient(testKubeConfig());
  const objects = readdirSync(deploy)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => loadAllYaml(readFileSync(join(deploy, f), 'utf8')) as KubernetesObject[]);
  const kinds = objects.map((o) => o.kind);
  expect(kinds).toEqual(
    expect.arrayContaining([
      'DaemonSet',
      'DeviceClass',
      'ClusterRole',
      'ClusterRoleBinding',
      'ServiceAccount',
      'Namespace',
    ]),
  );
  for (const namespace of objects.filter((o) => o.kind === 'Namespace')) {
    await api.create(namespace).catch((error: { code?: number }) => {
      if (error.code !== 409) throw error;
    });
  }
  for (const object of objects.filter((o) => o.kind !== 'Namespace')) {
    const created = await api.create(object, undefined, 'All');
    expect(created.metadata?.name).toBe(object.metadata?.name);
  }
  // Least privilege: the ClusterRole grants only what the controller uses.
  const role = objects.find((o) => o.kind === 'ClusterRole') as unknown as {
    rules: Array<{ resources: string[]; verbs: string[] }>;
  };
  expect(role.rules).toEqual([
    expect.objectContaining({
      resources: ['resourceslices'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
    }),
    expect.objectContaining({ resources: ['nodes'], verbs: ['get'] }),
  ]);
});
