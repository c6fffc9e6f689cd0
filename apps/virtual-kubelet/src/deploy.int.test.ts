// The deploy/ manifests, validated by the real apiserver: the namespace is created, everything
// else is created with a server-side dry run (dryRun=All), so schema and RBAC errors fail here.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { statusCode } from '@ctrlkit/core';
import { dryRunManifests } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import { expect, it } from 'vitest';

const deploy = join(dirname(fileURLToPath(import.meta.url)), '../deploy');

it('the deploy manifests pass a server-side dry run', async () => {
  const kubeConfig = testKubeConfig();
  const client = createClient(kubeConfig);
  // Another test may have applied the RBAC for real (running the app as its ServiceAccount).
  const readAccount = () =>
    client
      .get('serviceaccounts', 'ctrlkit-virtual-kubelet', { namespace: 'virtual-kubelet' })
      .then((account) => account.metadata?.resourceVersion, statusCode);
  const before = await readAccount();
  const { objects, results } = await dryRunManifests(kubeConfig, deploy);
  expect(objects.map((o) => o.kind).sort()).toEqual([
    'ClusterRole',
    'ClusterRoleBinding',
    'Deployment',
    'Namespace',
    'Role',
    'RoleBinding',
    'ServiceAccount',
  ]);
  expect(results.map((o) => o.metadata?.name)).toEqual(
    objects.filter((o) => o.kind !== 'Namespace').map((o) => o.metadata?.name),
  );
  for (const created of results) expect(created.metadata?.uid).toBeDefined();
  // dry run: nothing was stored (still absent: 404, or the same version as before)
  expect(await readAccount()).toBe(typeof before === 'string' ? before : 404);
  client.close();
});
