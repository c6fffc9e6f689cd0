// The webhook example of README.md, run against the test control plane: envtest installs
// the generated configurations with a certificate it makes, the manager runs the server,
// and the apiserver calls it. The test stops the manager instead of a signal.

import { ApiStatusError } from '@ctrlkit/client';
import { installCRDs, installWebhooks } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { expect, it } from 'vitest';
import { Manager } from '../manager/manager.js';
import {
  AdmissionDeniedError,
  mutatingWebhookConfiguration,
  mutatingWebhookFor,
  validatingWebhookConfiguration,
  validatingWebhookFor,
  WebhookServer,
} from '../webhook.js';

const GROUP = 'readme.wh.ctrlkit.test';
type Widget = { spec: { size?: number } };

it('runs the webhook README example', async () => {
  const kubeConfig = testKubeConfig();
  const integer = { type: 'integer' };
  await installCRDs(kubeConfig, [
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${GROUP}` },
      spec: {
        group: GROUP,
        scope: 'Cluster',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', properties: { size: integer } } },
              },
            },
          },
        ],
      },
    },
  ]);

  // The README's example, with the group of this test.
  const widgets = { group: GROUP, versions: ['v1'], kind: 'Widget', resource: 'widgets' };
  const validating = validatingWebhookFor<Widget>(
    {
      validateCreate: (w) => {
        if ((w.spec.size ?? 0) < 0) throw new AdmissionDeniedError('spec.size must be >= 0');
      },
      validateUpdate: () => [],
      validateDelete: () => [],
    },
    { ...widgets, name: `vwidget.${GROUP}` },
  );
  const mutating = mutatingWebhookFor<Widget>(
    {
      default: (w) => {
        w.spec.size ??= 1;
      },
    },
    { ...widgets, name: `mwidget.${GROUP}` },
  );
  const url = { url: 'https://set.by.envtest' };
  const installed = await installWebhooks(kubeConfig, {
    validatingWebhookConfigurations: [
      validatingWebhookConfiguration(`readme.${GROUP}`, [validating], url),
    ],
    mutatingWebhookConfigurations: [
      mutatingWebhookConfiguration(`readme.${GROUP}`, [mutating], url),
    ],
  });
  const server = new WebhookServer({
    host: installed.host,
    port: installed.port,
    certDir: installed.certDir,
  });
  server.register(validating).register(mutating);
  const manager = new Manager({
    kubeConfig,
    metricsBindAddress: '0',
    healthProbeBindAddress: '127.0.0.1:0',
    webhookServer: server,
  });
  const stop = new AbortController();
  const done = manager.start(stop.signal);
  try {
    await installed.waitReachable();
    expect((await fetch(`http://${manager.healthProbeAddress}/readyz/webhook`)).status).toBe(200);
    const { client } = manager;
    const resource = `${GROUP}/v1/widgets`;
    const widget = (name: string, spec: Widget['spec']) => ({
      apiVersion: `${GROUP}/v1`,
      kind: 'Widget',
      metadata: { name },
      spec,
    });

    const denied = await client
      .create(resource, widget('negative', { size: -1 }))
      .catch((e: unknown) => e);
    expect(ApiStatusError.isInstance(denied) && denied.status?.message).toContain(
      'spec.size must be >= 0',
    );
    await client.create(resource, widget('defaulted', {}));
    expect((await client.get<Widget>(resource, 'defaulted')).spec).toEqual({ size: 1 });
    expect(await manager.registry.metrics()).toMatch(
      /controller_runtime_webhook_requests_total\{webhook="\/mutate-readme-wh-ctrlkit-test-v1-widget",code="200"\} [1-9]/,
    );
  } finally {
    stop.abort();
    await done;
    await installed.uninstall();
  }
});
