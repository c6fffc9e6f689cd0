// The deploy/ manifests, validated by the real apiserver: the namespace is created, the rest
// with a server-side dry run (dryRun=All), so schema and RBAC errors fail here. The CRDs in
// deploy/ are the package's, byte for byte.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { type KubernetesObject, KubernetesObjectApi, loadAllYaml } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const deploy = join(here, '../deploy');

it('deploy/crds.yaml is the CRD manifest of @ctrlkit/plan-migration', async () => {
  const packaged = join(
    here,
    '../node_modules/@ctrlkit/plan-migration/crds/forklift.ctrlkit.dev.yaml',
  );
  expect(await readFile(join(deploy, 'crds.yaml'), 'utf8')).toBe(await readFile(packaged, 'utf8'));
});

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
    ...Array(6).fill('CustomResourceDefinition'),
    'Deployment',
    'Namespace',
    'ServiceAccount',
  ]);
  const namespace = objects.find((o) => o.kind === 'Namespace') as KubernetesObject;
  await client.create(namespace).catch((error: { code?: number }) => {
    if (error.code !== 409) throw error;
  });
  for (const object of objects.filter((o) => o.kind !== 'Namespace')) {
    try {
      const created = await client.create(object, undefined, 'All');
      expect(created.metadata?.name).toBe(object.metadata?.name);
    } catch (error) {
      // Another test of this run installed the CRDs: a dry-run replace validates them instead.
      if ((error as { code?: number }).code !== 409 || object.kind !== 'CustomResourceDefinition')
        throw error;
      const stored = await client.read(object as never);
      const replaced = await client.replace(
        {
          ...object,
          metadata: { ...object.metadata, resourceVersion: stored.metadata?.resourceVersion },
        },
        undefined,
        'All',
      );
      expect(replaced.metadata?.name).toBe(object.metadata?.name);
    }
  }
  await expect(
    client.read({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'ctrlkit-migration-controller', namespace: 'ctrlkit-migration' },
    }),
  ).rejects.toMatchObject({ code: 404 });
});
