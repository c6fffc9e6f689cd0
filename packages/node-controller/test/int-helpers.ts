//! Wiring for the integration tests: a node agent (NodeController + PodController) on a real apiserver.

import { SharedInformerFactory } from '@ctrlkit/runtime';
import { EventRecorder } from '@ctrlkit/runtime/events';
import { CoordinationV1Api, CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import type { PodLifecycleHandler } from '../src/adapter.js';
import { NodeController, type NodeControllerOptions } from '../src/node-controller.js';
import { NaiveNodeProvider } from '../src/node-provider.js';
import { PodController, type PodControllerConfig } from '../src/pod-controller.js';

export interface Agent {
  node: NodeController;
  pods: PodController;
  core: CoreV1Api;
  stop(): Promise<void>;
}

/** Starts a node agent named `nodeName` with `provider` on `kubeConfig`. */
export async function startAgent(
  kubeConfig: KubeConfig,
  nodeName: string,
  provider: PodLifecycleHandler,
  options: {
    node?: Partial<NodeControllerOptions>;
    pods?: Partial<PodControllerConfig>;
    workers?: number;
  } = {},
): Promise<Agent> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const node = new NodeController({
    provider: new NaiveNodeProvider(),
    node: {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: nodeName, labels: { type: 'virtual-kubelet' } },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] },
    },
    nodes: core,
    lease: { client: kubeConfig.makeApiClient(CoordinationV1Api) },
    ...options.node,
  });
  const factory = new SharedInformerFactory(kubeConfig);
  const recorder = new EventRecorder({ component: `${nodeName}/pod-controller`, kubeConfig });
  const pods = new PodController({
    podClient: core,
    podInformer: factory.forResource<V1Pod>('pods', { fieldSelector: `spec.nodeName=${nodeName}` }),
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
    core,
    stop: async () => {
      abort.abort();
      await Promise.allSettled([nodeRun, podRun]);
      await recorder.shutDown();
    },
  };
}
