// The Helm chart (chart/): the chart tests every app runs (describeChart of
// @ctrlkit/app-testing: lint, deploy/ = the render of release "ctrlkit", a dry run with other
// values, two releases side by side), and what these values must change.
import { join } from 'node:path';
import { describeChart } from '@ctrlkit/app-testing';
import { expect } from 'vitest';

await describeChart({
  appDirectory: join(import.meta.dirname, '..'),
  deployNamespace: 'dra-example-driver',
  deployHasCrds: false,
  values: {
    'image.tag': '9.9.9',
    numDevices: 3,
    logLevel: 'debug',
    'resources.requests.cpu': '50m',
    'deviceClass.create': false,
    'webhook.certManager.injectCA': true,
    'webhook.caBundle': 'Y2E=',
  },
  // The DeviceClass is the driver's (claims name gpu.example.com): one per cluster.
  secondReleaseValues: { 'deviceClass.create': false },
  async checkRendered(rendered, render) {
    expect(rendered.map((o) => o.kind)).not.toContain('DeviceClass');
    const daemonSet = rendered.find((o) => o.kind === 'DaemonSet') as {
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    };
    expect(daemonSet.spec.template.spec.containers[0]).toMatchObject({
      image: 'ghcr.io/ctrlkit/dra-example-driver:9.9.9',
      args: ['--num-devices=3', '--log-level=debug'],
      resources: { requests: { cpu: '50m' } },
    });
    // The webhook: cert-manager's CA injector named when asked for, the caBundle given.
    const configuration = (objects: typeof rendered) =>
      objects.find((o) => o.kind === 'ValidatingWebhookConfiguration') as {
        metadata: { annotations?: Record<string, string> };
        webhooks: Array<{ clientConfig: { caBundle?: string; service: { namespace: string } } }>;
      };
    const withCertManager = configuration(rendered);
    const namespace = withCertManager.webhooks[0]?.clientConfig.service.namespace;
    expect(withCertManager.metadata.annotations).toEqual({
      'cert-manager.io/inject-ca-from': `${namespace}/dra-example-webhook-cert`,
    });
    expect(withCertManager.webhooks.map((w) => w.clientConfig.caBundle)).toEqual(['Y2E=', 'Y2E=']);
    const named = configuration(
      await render({
        'webhook.certManager.injectCA': true,
        'webhook.certManager.certificate': 'serving',
      }),
    );
    expect(named.metadata.annotations).toEqual({
      'cert-manager.io/inject-ca-from': `${namespace}/serving`,
    });
    const plain = configuration(await render({}));
    expect(plain.metadata.annotations).toBeUndefined();
    expect(plain.webhooks.map((w) => w.clientConfig.caBundle)).toEqual([undefined, undefined]);
    expect((await render({ 'webhook.enabled': false })).map((o) => o.kind)).not.toContain(
      'ValidatingWebhookConfiguration',
    );
  },
});
