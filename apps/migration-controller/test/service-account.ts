//! For the app's integration tests: a kubeconfig that acts as deploy/'s ServiceAccount with exactly the ClusterRole of deploy/rbac.yaml.

import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  loadAllYaml,
} from '@kubernetes/client-node';

/** The app's deploy/ folder. */
export const DEPLOY_DIR = join(dirname(fileURLToPath(import.meta.url)), '../deploy');

/**
 * Grants deploy/rbac.yaml's ClusterRole (stored under a name of the tests, so the dry run of
 * deploy/ still finds the original names free; replaced when it exists, so it always has the
 * manifest's rules) to its ServiceAccount, and writes a kubeconfig that impersonates that
 * ServiceAccount: the app then has exactly the manifest's permissions.
 */
export async function serviceAccountKubeconfig(kubeConfig: KubeConfig): Promise<string> {
  const objects = loadAllYaml(await readFile(join(DEPLOY_DIR, 'rbac.yaml'), 'utf8')) as Array<
    KubernetesObject & {
      roleRef?: { name: string };
      subjects?: Array<{ name: string; namespace: string }>;
    }
  >;
  const client = KubernetesObjectApi.makeApiClient(kubeConfig);
  const name = 'ctrlkit-migration-controller-rbac-test';
  for (const object of objects.filter((o) => o.kind !== 'ServiceAccount')) {
    const renamed = {
      ...object,
      metadata: { ...object.metadata, name },
      ...(object.roleRef && { roleRef: { ...object.roleRef, name } }),
    };
    await client.create(renamed).catch(async (error: { code?: number }) => {
      if (error.code !== 409) throw error;
      await client.replace(renamed);
    });
  }
  const subject = objects.find((o) => o.kind === 'ClusterRoleBinding')?.subjects?.[0];
  if (!subject) throw new Error('deploy/rbac.yaml has no ClusterRoleBinding subject');
  const config = JSON.parse(kubeConfig.exportConfig()) as {
    users: Array<{ user: Record<string, unknown> }>;
  };
  for (const user of config.users)
    user.user.as = `system:serviceaccount:${subject.namespace}:${subject.name}`;
  const path = join(await mkdtemp(join(tmpdir(), 'mc-rbac-')), 'kubeconfig');
  await writeFile(path, JSON.stringify(config), { mode: 0o600 });
  return path;
}
