// The README's example, run against the test control plane (kubeConfig from envtest).
import { waitFor } from '@ctrlkit/core/testing';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient, type Wire } from '@ctrlkit/runtime/client';
import { EventRecorder } from '@ctrlkit/runtime/events';
import { SharedInformerFactory } from '@ctrlkit/runtime/informers';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import {
  NaiveNodeProvider,
  NodeController,
  PodController,
  type PodLifecycleHandler,
} from './index.js';

it('runs the README example: the node registers and a pod bound to it reaches Running', async () => {
  const kubeConfig = testKubeConfig();

  const client = createClient(kubeConfig); // in an app: manager.client
  const pods = new Map<string, Wire<V1Pod>>(); // the "backend": every pod runs at once
  const key = (ns: string, name: string) => `${ns}/${name}`;
  const provider: PodLifecycleHandler = {
    createPod: async (_s, pod) => {
      pods.set(key(pod.metadata!.namespace!, pod.metadata!.name!), {
        ...pod,
        status: { phase: 'Running' },
      });
    },
    updatePod: async () => {},
    deletePod: async (_s, pod) =>
      void pods.delete(key(pod.metadata!.namespace!, pod.metadata!.name!)),
    getPod: async (_s, ns, name) => pods.get(key(ns, name)),
    getPodStatus: async (_s, ns, name) => pods.get(key(ns, name))?.status,
    getPods: async () => [...pods.values()],
  };

  const nodeController = new NodeController({
    provider: new NaiveNodeProvider(),
    node: {
      metadata: { name: 'vk-demo' },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    },
    nodes: client,
    lease: { client },
  });
  const factory = new SharedInformerFactory(client);
  const podController = new PodController({
    podClient: client,
    podInformer: factory.forResource<Wire<V1Pod>>('pods', {
      fieldSelector: 'spec.nodeName=vk-demo',
    }),
    configMapInformer: factory.forResource('configmaps'),
    secretInformer: factory.forResource('secrets'),
    serviceInformer: factory.forResource('services'),
    eventRecorder: new EventRecorder({ component: 'vk-demo', client }),
    provider,
  });

  const stop = new AbortController();
  void nodeController.run(stop.signal);
  factory.start(stop.signal);
  void podController.run(stop.signal, 4);
  await Promise.all([nodeController.ready, podController.ready]);

  await client.create(
    'pods',
    {
      metadata: { name: 'readme-pod' },
      spec: { nodeName: 'vk-demo', containers: [{ name: 'c', image: 'nginx' }] },
    },
    { namespace: 'default' },
  );
  await waitFor(
    'readme-pod Running',
    async () =>
      (await client.get<V1Pod>('pods', 'readme-pod', { namespace: 'default' })).status?.phase ===
      'Running',
  );
  const node = await client.get<V1Node>('nodes', 'vk-demo');
  expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  await client.delete('pods', 'readme-pod', { namespace: 'default', gracePeriodSeconds: 0 });
  stop.abort();
  await Promise.all([nodeController.done, podController.done]);
});
