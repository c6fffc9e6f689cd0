import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@ctrlkit/core';
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { installCRDs } from './crds.js';
import { createTestNamespace } from './namespace.js';
import { testKubeConfig } from './vitest.js';

const widgets: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.ctrlkit.dev' },
  spec: {
    group: 'example.ctrlkit.dev',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
          },
        },
      },
    ],
  },
};

describe('installCRDs', () => {
  it('installs a CRD and waits until its resources are served', async () => {
    const kubeConfig = testKubeConfig();
    const [installed] = await installCRDs(kubeConfig, [widgets]);
    expect(installed?.status?.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'Established', status: 'True' })]),
    );
    const namespace = await createTestNamespace(kubeConfig);
    const custom = kubeConfig.makeApiClient(CustomObjectsApi);
    const body = {
      apiVersion: 'example.ctrlkit.dev/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { size: 3 },
    };
    await custom.createNamespacedCustomObject({
      group: 'example.ctrlkit.dev',
      version: 'v1',
      namespace,
      plural: 'widgets',
      body,
    });
    const read = await custom.getNamespacedCustomObject({
      group: 'example.ctrlkit.dev',
      version: 'v1',
      namespace,
      plural: 'widgets',
      name: 'w',
    });
    expect(read.spec).toEqual({ size: 3 });
  });

  it('is idempotent and reads CRDs from YAML files', async () => {
    const kubeConfig = testKubeConfig();
    const file = join(tmpdir(), `gadgets-${process.pid}.yaml`);
    await writeFile(
      file,
      `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.ctrlkit.dev
spec:
  group: example.ctrlkit.dev
  scope: Cluster
  names: { plural: gadgets, singular: gadget, kind: Gadget }
  versions:
    - name: v1alpha1
      served: true
      storage: true
      schema:
        openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true }
`,
    );
    const first = await installCRDs(kubeConfig, [file, widgets]);
    const again = await installCRDs(kubeConfig, [file]);
    expect(first.map((c) => c.metadata?.name)).toEqual([
      'gadgets.example.ctrlkit.dev',
      'widgets.example.ctrlkit.dev',
    ]);
    expect(again[0]?.metadata?.uid).toBe(first[0]?.metadata?.uid);
  });

  it('rejects something that is not a CRD, naming the field', async () => {
    const error = await installCRDs(testKubeConfig(), [{ kind: 'ConfigMap' } as never]).catch(
      (e) => e,
    );
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error.field).toBe('crds');
  });

  it('installs a CRD converted by a webhook whose server is not up, with objects stored', async () => {
    // The examples' case: a CRD with a conversion webhook (its Service not there yet) and
    // objects another test left behind at the storage version. A list of the other served
    // version would call the webhook for them and fail; discovery does not.
    const kubeConfig = testKubeConfig();
    const name = 'sprockets.example.ctrlkit.dev';
    const version = (v: string, storage: boolean) => ({
      name: v,
      served: true,
      storage,
      schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    });
    const sprockets: V1CustomResourceDefinition = {
      ...widgets,
      metadata: { name },
      spec: {
        group: 'example.ctrlkit.dev',
        scope: 'Cluster',
        names: { plural: 'sprockets', singular: 'sprocket', kind: 'Sprocket' },
        versions: [version('v1', true), version('v1beta1', false)],
      },
    };
    const custom = kubeConfig.makeApiClient(CustomObjectsApi);
    try {
      await installCRDs(kubeConfig, [sprockets]);
      const body = {
        apiVersion: 'example.ctrlkit.dev/v1',
        kind: 'Sprocket',
        metadata: { name: 's' },
      };
      const sprocket = { group: 'example.ctrlkit.dev', version: 'v1', plural: 'sprockets' };
      await custom.createClusterCustomObject({ ...sprocket, body });
      const service = { namespace: 'nowhere', name: 'nowhere', path: '/convert' };
      const conversion = {
        strategy: 'Webhook',
        webhook: { conversionReviewVersions: ['v1'], clientConfig: { service } },
      };
      const [installed] = await installCRDs(
        kubeConfig,
        [{ ...sprockets, spec: { ...sprockets.spec, conversion } }],
        { timeoutMs: 10_000 },
      );
      expect(installed?.spec.conversion?.strategy).toBe('Webhook');
      const read = await custom.getClusterCustomObject({ ...sprocket, name: 's' });
      expect(read.metadata.name).toBe('s');
    } finally {
      await kubeConfig
        .makeApiClient(ApiextensionsV1Api)
        .deleteCustomResourceDefinition({ name })
        .catch(() => {});
    }
  });
});
