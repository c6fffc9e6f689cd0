//! Validates a folder of manifests against the control plane by a server-side dry run, as an app's deploy/ test does.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  loadAllYaml,
} from '@kubernetes/client-node';

/** What {@link dryRunManifests} read and what the apiserver answered. */
export interface DryRunResult {
  /** Every object of the folder, in file-name order. */
  objects: KubernetesObject[];
  /** The apiserver's answer to each dry run (every object but the Namespaces), in the same order. */
  results: KubernetesObject[];
}

/**
 * Reads every `*.yaml` of `dir` (sorted by name, multi-document), first creates its Namespaces
 * for real (an existing one is fine: the rest cannot be created in a namespace a dry run only
 * pretended to make), and sends everything else with `dryRun=All`, so schema, admission and
 * RBAC errors throw. An object that already exists (another test installed it: a CRD, or an
 * app's RBAC that a test running the app applied) is validated by a dry-run replace at its
 * stored resourceVersion instead. Nothing but the
 * Namespaces is stored.
 */
export async function dryRunManifests(kubeConfig: KubeConfig, dir: string): Promise<DryRunResult> {
  const client = KubernetesObjectApi.makeApiClient(kubeConfig);
  const objects: KubernetesObject[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort()) {
    objects.push(...(loadAllYaml(await readFile(join(dir, file), 'utf8')) as KubernetesObject[]));
  }
  for (const namespace of objects.filter((o) => o.kind === 'Namespace')) {
    await client.create(namespace).catch((error: { code?: number }) => {
      if (error.code !== 409) throw error;
    });
  }
  const results: KubernetesObject[] = [];
  for (const object of objects.filter((o) => o.kind !== 'Namespace')) {
    try {
      results.push(await client.create(object, undefined, 'All'));
    } catch (error) {
      if ((error as { code?: number }).code !== 409) throw error;
      const stored = await client.read(object as KubernetesObject & { metadata: { name: string } });
      const metadata = { ...object.metadata, resourceVersion: stored.metadata?.resourceVersion };
      results.push(await client.replace({ ...object, metadata }, undefined, 'All'));
    }
  }
  return { objects, results };
}
