// The deploy/ manifests (the controller's, and ctrlkit-forklift-api's with its generated webhook
// configurations), validated by the real apiserver: the namespace is created, the rest
// with a server-side dry run (dryRun=All), so schema and RBAC errors fail here. The CRDs in
// deploy/ are the package's, byte for byte.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dryRunManifests } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
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
  const kubeConfig = testKubeConfig();
  const { objects, results } = await dryRunManifests(kubeConfig, deploy);
  expect(objects.map((o) => o.kind).sort()).toEqual([
    'ClusterRole',
    'ClusterRole',
    'ClusterRoleBinding',
    'ClusterRoleBinding',
    ...Array(6).fill('CustomResourceDefinition'),
    'Deployment',
    'Deployment',
    'MutatingWebhookConfiguration',
    'Namespace',
    'Role',
    'RoleBinding',
    'Service',
    'ServiceAccount',
    'ServiceAccount',
    'ValidatingWebhookConfiguration',
  ]);
  expect(results.map((o) => o.metadata?.name)).toEqual(
    objects.filter((o) => o.kind !== 'Namespace').map((o) => o.metadata?.name),
  );
  const client = createClient(kubeConfig);
  await expect(
    client.get('apps/v1/deployments', 'ctrlkit-migration-controller', {
      namespace: 'ctrlkit-migration',
    }),
  ).rejects.toMatchObject({ statusCode: 404 });
  client.close();
});
