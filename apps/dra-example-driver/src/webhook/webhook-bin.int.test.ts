// The shipped bin, ctrlkit-dra-example-webhook, as a process on the test apiserver, as the
// ServiceAccount deploy/webhook.yaml runs it as, with the RBAC deploy/ gives that (none: the
// audit log must show no request of it): it serves the certificate envtest's installWebhooks
// made (--cert-dir), reports ready, denies a claim with an invalid GpuConfig with its
// message, admits a valid one, and exits 0 on SIGTERM.
import { type AppProcess, appPackage, readManifests, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, freePort, installWebhooks } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { ApiStatusError, createClient } from '@ctrlkit/runtime/client';
import { expect, it } from 'vitest';
import { driverWebhookConfiguration } from './webhook-configuration.js';

const app = appPackage('@ctrlkit/dra-example-driver', import.meta.url);

/** The ServiceAccount of deploy/'s webhook Deployment (its namespace's `default` when it names none). */
async function webhookServiceAccount() {
  const deployment = (await readManifests(app.deployDir)).find(
    (o) => o.kind === 'Deployment' && o.metadata?.name === 'dra-example-webhook',
  ) as {
    metadata: { namespace: string };
    spec: { template: { spec: { serviceAccountName?: string } } };
  };
  return {
    namespace: deployment.metadata.namespace,
    name: deployment.spec.template.spec.serviceAccountName ?? 'default',
  };
}

function claim(namespace: string, name: string, interval: string) {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace },
    spec: {
      devices: {
        config: [
          {
            opaque: {
              driver: 'gpu.example.com',
              parameters: {
                apiVersion: 'gpu.resource.example.com/v1alpha1',
                kind: 'GpuConfig',
                sharing: { strategy: 'TimeSlicing', timeSlicingConfig: { interval } },
              },
            },
          },
        ],
      },
    },
  };
}

it('ctrlkit-dra-example-webhook serves the webhooks as its shipped ServiceAccount: deny, admit, ready, exit 0 on SIGTERM, no request', async () => {
  const kubeConfig = testKubeConfig();
  const client = createClient(kubeConfig);
  const installed = await installWebhooks(kubeConfig, {
    validatingWebhookConfigurations: [
      driverWebhookConfiguration({ name: 'bin-dra-example-webhook' }),
    ],
  });
  const probes = `127.0.0.1:${await freePort()}`;
  let webhook: AppProcess | undefined;
  try {
    webhook = await startApp(app, {
      bin: 'ctrlkit-dra-example-webhook',
      serviceAccount: await webhookServiceAccount(),
      args: [
        `--cert-dir=${installed.certDir}`,
        `--port=${installed.port}`,
        '--metrics-bind-address=0',
        `--health-probe-bind-address=${probes}`,
      ],
    });
    await installed.waitReachable();
    await waitFor('the webhook ready', async () => (await fetch(`http://${probes}/readyz`)).ok, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    const namespace = await createTestNamespace(kubeConfig);
    const denied = await client
      .create('resource.k8s.io/v1/resourceclaims', claim(namespace, 'bad', 'Sometimes'))
      .catch((error: unknown) => error);
    expect(ApiStatusError.isInstance(denied) && denied.status?.message).toContain(
      `ResourceClaim ${namespace}/bad (resource.k8s.io/v1): 1 of the device configs for driver gpu.example.com failed to validate: config 0 (requests: all): spec.devices.config[0].opaque.parameters.sharing.timeSlicingConfig.interval: unknown time-slice interval: "Sometimes"`,
    );
    const admitted = await client.create(
      'resource.k8s.io/v1/resourceclaims',
      claim(namespace, 'good', 'Short'),
    );
    expect(admitted.metadata?.name).toBe('good');
    // stop(): SIGTERM, then the audit log: a request of the ServiceAccount, which deploy/
    // grants nothing, would fail it.
    expect(await webhook.stop()).toBe(0);
  } finally {
    await webhook?.kill();
    await installed.uninstall();
  }
});
