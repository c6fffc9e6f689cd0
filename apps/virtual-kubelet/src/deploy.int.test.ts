// The deploy/ manifests, validated by the real apiserver: the namespace is created, everything
// else is created with a server-side dry run (dryRun=All), so schema and RBAC errors fail here.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { type KubernetesObject, KubernetesObjectApi, loadAllYaml } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

const deploy = join(dirname(fileURLToPath(import.meta.url)), '../deploy');

it('the deploy manifests pass a server-side dry run', async () => {
  const client = KubernetesObjectApi.makeApiClient(testKubeConfig());
  const objects: KubernetesObject[] = [];
  for (const file of (await readdir(deploy)).filter((f) => f.endsWith('.yaml')).sort()) {
    objects.push(
      ...(loadAllYaml(await readFile(join(deploy, file), 'utf8')) as KubernetesObject[]),
    );
  }
  expect(objects.map((o) => o.kind).sort()).toEqual([
    'ClusterRole',
    'ClusterRoleBinding',
    'Deployment',
    'Namespace',
    'ServiceAccount',
  ]);
  const namespace = objects.find((o) => o.kind === 'Namespace') as KubernetesObject;
  try {
    await client.create(namespace);
  } catch (error) {
    if ((error as { code?: number }).code !== 409) throw error;
  }
  for (const object of objects.filter((o) => o.kind !== 'Namespace')) {
    const created = await client.create(object, undefined, 'All');
    expect(created.metadata?.name).toBe(object.metadata?.name);
    expect(created.metadata?.uid).toBeDefined();
  }
  // dry run: nothing was stored
  await expect(
    client.read({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'ctrlkit-virtual-kubelet', namespace: 'virtual-kubelet' },
    }),
  ).rejects.toMatchObject({ code: 404 });
});
