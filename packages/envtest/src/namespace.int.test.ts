import { InvalidArgumentError } from '@ctrlkit/core';
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createTestNamespace } from './namespace.js';
import { KUBECONFIG_ENV, testKubeConfig } from './vitest.js';

describe('createTestNamespace', () => {
  it('creates a fresh, labelled namespace each time', async () => {
    const kubeConfig = testKubeConfig();
    const [a, b] = await Promise.all([
      createTestNamespace(kubeConfig, 'iso-'),
      createTestNamespace(kubeConfig, 'iso-'),
    ]);
    expect(a).toMatch(/^iso-[a-z0-9]{5}$/);
    expect(b).not.toBe(a);
    const read = await kubeConfig.makeApiClient(CoreV1Api).readNamespace({ name: a! });
    expect(read.metadata?.labels).toMatchObject({ 'ctrlkit.dev/envtest': 'true' });
  });

  it('rejects a prefix that is not a DNS label', async () => {
    const error = await createTestNamespace(testKubeConfig(), 'Bad_Prefix').catch((e) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error.field).toBe('prefix');
  });
});

describe('the vitest global setup', () => {
  it('hands the kubeconfig of one control plane to the tests', async () => {
    expect(process.env[KUBECONFIG_ENV]).toMatch(/ctrlkit-envtest-.*\/kubeconfig$/);
    const version = await testKubeConfig().makeApiClient(CoreV1Api).listNamespace();
    expect(version.items.length).toBeGreaterThan(0);
  });
});
