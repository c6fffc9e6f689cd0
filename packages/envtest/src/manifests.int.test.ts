import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { dryRunManifests } from './manifests.js';
import { testKubeConfig } from './vitest.js';

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'envtest-manifests-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('dryRunManifests', () => {
  it('creates the Namespace first, dry-runs the rest (stored: only the Namespace)', async () => {
    const ns = `manifests-${Date.now().toString(36)}`;
    const dir = await folder({
      // 'b-' sorts after 'a-': the namespace must exist before the ConfigMap's dry run anyway.
      'a-config.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: ${ns}}\ndata: {a: "1"}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: token, namespace: ${ns}}\n`,
      'b-namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n`,
      'notes.txt': 'not a manifest',
    });
    const kubeConfig = testKubeConfig();
    const { objects, results } = await dryRunManifests(kubeConfig, dir);
    expect(objects.map((o) => o.kind)).toEqual(['ConfigMap', 'Secret', 'Namespace']);
    expect(results.map((o) => o.metadata?.name)).toEqual(['settings', 'token']);
    const core = kubeConfig.makeApiClient(CoreV1Api);
    expect((await core.readNamespace({ name: ns })).metadata?.name).toBe(ns);
    await expect(
      core.readNamespacedConfigMap({ namespace: ns, name: 'settings' }),
    ).rejects.toMatchObject({
      code: 404,
    });
  });

  it('throws the apiserver’s error for an invalid object', async () => {
    const dir = await folder({
      'bad.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Not_Valid, namespace: default}\n',
    });
    await expect(dryRunManifests(testKubeConfig(), dir)).rejects.toMatchObject({ code: 422 });
  });
});
