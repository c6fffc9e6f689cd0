//! Wiring for the integration tests: a node agent (NodeController + PodController) on a real apiserver.

import { type Client, createClient, type KubeConfigLike, type Wire } from '@ctrlkit/runtime/client';
import { EventRecorder } from '@ctrlkit/runtime/events';
import { SharedInformerFactory } from '@ctrlkit/runtime/informers';
import type { V1Pod } from '@kubernetes/client-node';
import type { PodLifecycleHandler } from '../src/adapter.js';
import { NodeController, type NodeControllerOptions } from '../src/node-controller.js';
import { NaiveNodeProvider } from '../src/node-provider.js';
import { PodController } from '../src/pod-controller.js';
import type { PodControllerConfig } from '../src/pod-controller-config.js';

export interface Agent {
  node: NodeController;
  pods: PodController;
  /** The agent's one client: the tests set up and read through it too. */
  client: Client;
  stop(): Promise<void>;
}

/** Starts a node agent named `nodeName` with `provider` on `kubeConfig`, every request through one client. */
export async function startAgent(
  kubeConfig: KubeConfigLike,
  nodeName: string,
  provider: PodLifecycleHandler,
  options: {
    node?: Partial<NodeControllerOptions>;
    pods?: Partial<PodControllerConfig>;
    workers?: number;
  } = {},
): Promise<Agent> {
  const client = createClient(kubeConfig, { qps: Number.POSITIVE_INFINITY });
  const node = new NodeController({
    provider: new NaiveNodeProvider(),
    node: {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: nodeName, labels: { type: 'virtual-kubelet' } },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] },
    },
    nodes: client,
    lease: { client },
    ...options.node,
  });
  const factory = new SharedInformerFactory(client);
  const recorder = new EventRecorder({ component: `${nodeName}/pod-controller`, client });
  const pods = new PodController({
    podClient: client,
    podInformer: factory.forResource<Wire<V1Pod>>('pods', {
      fieldSelector: `spec.nodeName=${nodeName}`,
    }),
    configMapInformer: factory.forResource('configmaps'),
    secretInformer: factory.forResource('secrets'),
    serviceInformer: factory.forResource('services'),
    eventRecorder: recorder,
    provider,
    ...options.pods,
  });
  const abort = new AbortController();
  const nodeRun = node.run(abort.signal);
  nodeRun.catch(() => {});
  factory.start(abort.signal);
  const podRun = pods.run(abort.signal, options.workers ?? 4);
  podRun.catch(() => {});
  await Promise.all([node.ready, pods.ready]);
  return {
    node,
    pods,
    client,
    stop: async () => {
      abort.abort();
      await Promise.allSettled([nodeRun, podRun]);
      await recorder.shutDown();
    },
  };
}
