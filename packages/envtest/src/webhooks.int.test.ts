import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import {
  AdmissionregistrationV1Api,
  ApiextensionsV1Api,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { installCRDs } from './crds.js';
import { NotReadyError } from './errors/not-ready-error.js';
import { testKubeConfig } from './vitest.js';
import { installWebhooks } from './webhooks.js';

const gadgets: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.webhooks.ctrlkit.dev' },
  spec: {
    group: 'webhooks.ctrlkit.dev',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object' },
        },
      },
      {
        name: 'v1beta1',
        served: true,
        storage: false,
        schema: {
          openAPIV3Schema: { type: 'object' },
        },
      },
    ],
  },
};

/** A plain HTTPS server that answers 404 to everything: enough for the apiserver to reach. */
async function listen(certDir: string, port: number): Promise<Server> {
  const server = createServer(
    {
      cert: await readFile(join(certDir, 'tls.crt')),
      key: await readFile(join(certDir, 'tls.key')),
    },
    (_request, response) => response.writeHead(404).end(),
  );
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

describe('installWebhooks', () => {
  it('installs configurations and a conversion at the local URL, waits for the apiserver, and removes them', async () => {
    const kubeConfig = testKubeConfig();
    await installCRDs(kubeConfig, [gadgets]);
    const installed = await installWebhooks(kubeConfig, {
      validatingWebhookConfigurations: [
        {
          metadata: { name: 'gadgets.webhooks.ctrlkit.dev' },
          webhooks: [
            {
              name: 'vgadget.webhooks.ctrlkit.dev',
              clientConfig: {
                service: { name: 'ignored', namespace: 'ignored', path: '/validate-gadget' },
              },
              rules: [
                {
                  apiGroups: ['webhooks.ctrlkit.dev'],
                  apiVersions: ['v1'],
                  operations: ['CREATE'],
                  resources: ['gadgets'],
                },
              ],
              admissionReviewVersions: ['v1'],
              sideEffects: 'None',
            },
          ],
        },
      ],
      conversions: [{ crdName: 'gadgets.webhooks.ctrlkit.dev' }],
    });
    const admission = kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    const extensions = kubeConfig.makeApiClient(ApiextensionsV1Api);
    const config = await admission.readValidatingWebhookConfiguration({
      name: 'gadgets.webhooks.ctrlkit.dev',
    });
    expect(config.webhooks?.[0]?.clientConfig).toEqual({
      url: `https://127.0.0.1:${installed.port}/validate-gadget`,
      caBundle: Buffer.from(installed.ca.certPem).toString('base64'),
    });
    const crd = await extensions.readCustomResourceDefinition({
      name: 'gadgets.webhooks.ctrlkit.dev',
    });
    expect(crd.spec.conversion?.webhook?.clientConfig?.url).toBe(`${installed.url}/convert`);

    await expect(installed.waitReachable(1500)).rejects.toBeInstanceOf(NotReadyError);
    servers.push(await listen(installed.certDir, installed.port));
    await installed.waitReachable();

    await installed.uninstall();
    await expect(
      admission.readValidatingWebhookConfiguration({ name: 'gadgets.webhooks.ctrlkit.dev' }),
    ).rejects.toMatchObject({ code: 404 });
    const restored = await extensions.readCustomResourceDefinition({
      name: 'gadgets.webhooks.ctrlkit.dev',
    });
    expect(restored.spec.conversion?.strategy).toBe('None');
    const probes = await admission.listValidatingWebhookConfiguration();
    expect(
      probes.items.filter((c) => c.metadata?.name?.startsWith('envtest-webhook-probe-')),
    ).toEqual([]);
  });

  it('rejects a webhook without a path, naming it', async () => {
    await expect(
      installWebhooks(testKubeConfig(), {
        mutatingWebhookConfigurations: [
          {
            metadata: { name: 'x' },
            webhooks: [
              {
                name: 'm.x.dev',
                clientConfig: {},
                admissionReviewVersions: ['v1'],
                sideEffects: 'None',
              },
            ],
          },
        ],
      }),
    ).rejects.toThrow(/mutating webhook m.x.dev/);
  });
});
