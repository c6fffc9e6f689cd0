// The shipped bin, ctrlkit-dra-example-webhook, as a process on the test apiserver: it serves
// the certificate envtest's installWebhooks made (--cert-dir), reports ready, denies a claim
// with an invalid GpuConfig with its message, admits a valid one, and exits 0 on SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appPackage } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, freePort, installWebhooks } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { ApiStatusError, createClient } from '@ctrlkit/runtime/client';
import { expect, it } from 'vitest';
import { driverWebhookConfiguration } from './webhook-configuration.js';

const bin = appPackage('@ctrlkit/dra-example-driver', import.meta.url).bins[
  'ctrlkit-dra-example-webhook'
] as string;

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

it('ctrlkit-dra-example-webhook serves the webhooks: deny, admit, ready, exit 0 on SIGTERM', async () => {
  const kubeConfig = testKubeConfig();
  const client = createClient(kubeConfig);
  const dir = await mkdtemp(join(tmpdir(), 'dra-webhook-bin-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  await writeFile(kubeconfigPath, kubeConfig.exportConfig());
  const installed = await installWebhooks(kubeConfig, {
    validatingWebhookConfigurations: [
      driverWebhookConfiguration({ name: 'bin-dra-example-webhook' }),
    ],
  });
  const probes = `127.0.0.1:${await freePort()}`;
  let child: ChildProcess | undefined;
  try {
    child = spawn(
      process.execPath,
      [
        bin,
        `--kubeconfig=${kubeconfigPath}`,
        `--cert-dir=${installed.certDir}`,
        `--port=${installed.port}`,
        '--metrics-bind-address=0',
        `--health-probe-bind-address=${probes}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const exited = once(child, 'exit');
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
    child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
  } finally {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await installed.uninstall();
    await rm(dir, { recursive: true, force: true });
  }
});
