// The README's example, step for step (the CRD file is written to a temp folder first).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { createTestNamespace, installCRDs, noopLogger, startControlPlane } from './index.js';

it('runs the README example', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'envtest-readme-'));
  const crdFile = join(folder, 'widgets.yaml');
  await writeFile(
    crdFile,
    `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.readme.ctrlkit.dev }
spec:
  group: readme.ctrlkit.dev
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
    - { name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object } } }
`,
  );

  const plane = await startControlPlane({ logger: noopLogger });
  try {
    const core = plane.kubeConfig.makeApiClient(CoreV1Api);
    const namespace = await createTestNamespace(plane.kubeConfig);
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'a' } } });
    await installCRDs(plane.kubeConfig, [crdFile]);
    await plane.restartApiServer();
    const read = await core.readNamespacedConfigMap({ namespace, name: 'a' });
    expect(read.metadata?.name).toBe('a');
  } finally {
    await plane.stop();
    await rm(folder, { recursive: true, force: true });
  }
});
