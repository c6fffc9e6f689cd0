import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { apply } from '@ctrlkit/runtime';
import { createClient } from '@ctrlkit/runtime/client';
import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
import { beforeAll, expect, it } from 'vitest';
import { fieldManager, startGreetingController } from './greeting-controller.js';
import { type Greeting, greetingCrd, group, plural, version } from './greeting-crd.js';

/** How long the test waits for the controller, each time. */
const waitMs = 30_000;

let kubeConfig: KubeConfig;
beforeAll(async () => {
  kubeConfig = testKubeConfig();
  await installCRDs(kubeConfig, [greetingCrd]);
});

it('applies the ConfigMap and the status, prunes what the spec drops, keeps what others own', async () => {
  const namespace = await createTestNamespace(kubeConfig, 'greetings-');
  const client = createClient(kubeConfig);
  const greetings = { group, version, resource: plural };
  const stop = new AbortController();
  const done = startGreetingController({ kubeConfig, namespace }, stop.signal);
  const configMap = () => client.get<V1ConfigMap>('configmaps', 'hello-greeting', { namespace });
  const greeting = () => client.get<Greeting>(greetings, 'hello', { namespace });

  const created = await client.create<Greeting>(
    greetings,
    {
      apiVersion: `${group}/${version}`,
      kind: 'Greeting',
      metadata: { name: 'hello' },
      spec: { message: 'hi', signature: 'ctrlkit' },
    },
    { namespace },
  );
  await waitFor('the ConfigMap', async () => (await configMap()).data?.message === 'hi', {
    timeoutMs: waitMs,
  });
  const first = await configMap();
  expect(first.data).toEqual({ message: 'hi', signature: 'ctrlkit' });
  expect(first.metadata?.ownerReferences).toEqual([
    expect.objectContaining({
      kind: 'Greeting',
      name: 'hello',
      uid: created.metadata.uid,
      controller: true,
    }),
  ]);
  expect(
    first.metadata?.managedFields?.some(
      (f) => f.manager === fieldManager && f.operation === 'Apply',
    ),
  ).toBe(true);
  await waitFor(
    'the status',
    async () => (await greeting()).status?.configMap === 'hello-greeting',
    { timeoutMs: waitMs },
  );

  // Someone else labels the ConfigMap under their own field manager.
  const labelled: V1ConfigMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'hello-greeting', namespace, labels: { team: 'docs' } },
  };
  await apply(kubeConfig, labelled, { fieldManager: 'kubectl' });

  // The spec drops the signature: the controller's next apply removes that key only.
  await client.patch(
    greetings,
    'hello',
    [
      { op: 'replace', path: '/spec/message', value: 'hello again' },
      { op: 'remove', path: '/spec/signature' },
    ],
    { namespace, type: 'json' },
  );
  await waitFor('the update', async () => (await configMap()).data?.message === 'hello again', {
    timeoutMs: waitMs,
  });
  const second = await configMap();
  expect(second.data).toEqual({ message: 'hello again' });
  expect(second.metadata?.labels).toEqual({ team: 'docs' });
  await waitFor(
    'observedGeneration 2',
    async () => (await greeting()).status?.observedGeneration === 2,
    { timeoutMs: waitMs },
  );
  stop.abort();
  await done;
  client.close();
});
