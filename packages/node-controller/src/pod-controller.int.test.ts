// PodController against a real apiserver: 100 pods run and are deleted gracefully; provider failures.
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { Wire } from '@ctrlkit/runtime/client';
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { startAgent } from '../test/int-helpers.js';
import { NotifyingMemoryProvider } from '../test/test-harness.js';

const pod = (
  name: string,
  nodeName: string,
  extra: Partial<NonNullable<Wire<V1Pod>['spec']>> = {},
): Wire<V1Pod> => ({
  metadata: { name },
  spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }], ...extra },
});

it('100 pods bound by spec.nodeName reach Running, then are deleted gracefully with none left', async () => {
  const kubeConfig = testKubeConfig();
  const namespace = await createTestNamespace(kubeConfig, 'vk-pods-');
  const provider = new NotifyingMemoryProvider();
  const agent = await startAgent(kubeConfig, 'vk-int-pods', provider);
  const { client } = agent;
  try {
    const names = Array.from({ length: 100 }, (_, i) => `p-${i}`);
    await Promise.all(
      names.map((n) => client.create('pods', pod(n, 'vk-int-pods'), { namespace })),
    );
    await waitFor('100 running pods', async () => {
      const list = await client.list<V1Pod>('pods', { namespace });
      return list.items.filter((p) => p.status?.phase === 'Running').length === 100;
    });
    const running = await client.get<V1Pod>('pods', 'p-0', { namespace });
    expect(running.status?.podIP).toBe('10.0.0.1');

    await Promise.all(
      names.map((n) => client.delete('pods', n, { namespace, gracePeriodSeconds: 30 })),
    );
    await waitFor(
      'no pod left',
      async () => (await client.list<V1Pod>('pods', { namespace })).items.length === 0,
    );
    expect(provider.pods.size).toBe(0);
  } finally {
    await agent.stop();
    await client.delete('nodes', 'vk-int-pods');
  }
});

it('a provider create failure gives the pod the ProviderFailed reason and a ProviderCreateFailed event', async () => {
  const kubeConfig = testKubeConfig();
  const namespace = await createTestNamespace(kubeConfig, 'vk-fail-');
  const provider = new NotifyingMemoryProvider();
  provider.createError = new Error('no capacity left');
  const agent = await startAgent(kubeConfig, 'vk-int-fail', provider);
  const { client } = agent;
  try {
    await client.create('pods', pod('doomed', 'vk-int-fail', { restartPolicy: 'Never' }), {
      namespace,
    });
    await waitFor('ProviderFailed', async () => {
      const p = await client.get<V1Pod>('pods', 'doomed', { namespace });
      return p.status?.reason === 'ProviderFailed';
    });
    const p = await client.get<V1Pod>('pods', 'doomed', { namespace });
    expect(p.status).toMatchObject({ phase: 'Failed', message: 'no capacity left' });
    await waitFor('the event', async () => {
      const events = await client.list<CoreV1Event>('events', { namespace });
      return events.items.some((e) => e.reason === 'ProviderCreateFailed');
    });
  } finally {
    await agent.stop();
    await client.delete('nodes', 'vk-int-fail');
  }
});

it('env resolution: a missing mandatory ConfigMap gives MandatoryConfigMapNotFound; once created the pod runs with its value', async () => {
  const kubeConfig = testKubeConfig();
  const namespace = await createTestNamespace(kubeConfig, 'vk-env-');
  const provider = new NotifyingMemoryProvider();
  const agent = await startAgent(kubeConfig, 'vk-int-env', provider);
  const { client } = agent;
  try {
    const env = [
      { name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'greeting' } } },
    ];
    await client.create(
      'pods',
      pod('env', 'vk-int-env', { containers: [{ name: 'c', image: 'i', env }] }),
      {
        namespace,
      },
    );
    await waitFor('the event', async () => {
      const events = await client.list<CoreV1Event>('events', { namespace });
      return events.items.some((e) => e.reason === 'MandatoryConfigMapNotFound');
    });
    await client.create(
      'configmaps',
      { metadata: { name: 'cfg' }, data: { greeting: 'hello' } },
      { namespace },
    );
    await waitFor(
      'running',
      async () =>
        (await client.get<V1Pod>('pods', 'env', { namespace })).status?.phase === 'Running',
      { timeoutMs: 90_000 },
    );
    const created = provider.calls.find((c) => c.op === 'create');
    expect(created?.pod.spec?.containers[0]?.env).toContainEqual({
      name: 'GREETING',
      value: 'hello',
    });
  } finally {
    await agent.stop();
    await client.delete('nodes', 'vk-int-env');
  }
});
