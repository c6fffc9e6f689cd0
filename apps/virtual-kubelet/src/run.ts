//! Wires a NodeController and a PodController to a provider on a runtime Manager.

import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import type { Logger } from '@ctrlkit/core';
import { NaiveNodeProvider, NodeController, PodController } from '@ctrlkit/node-controller';
import { loadKubeConfig, Manager } from '@ctrlkit/runtime';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { Gauge } from 'prom-client';
import packageJson from '../package.json' with { type: 'json' };
import type { Flags } from './flags.js';
import { startKubeletApiServer } from './kubelet-api/kubelet-api-server.js';
import { selfSignedCert } from './kubelet-api/self-signed-cert.js';
import { MockProvider } from './providers/mock-provider.js';
import { ProcessProvider } from './providers/process-provider.js';

/** What `runVirtualKubelet` built, for tests and embedding. */
export interface VirtualKubelet {
  manager: Manager;
  provider: MockProvider | ProcessProvider;
  nodeController: NodeController;
  podController: PodController;
}

/** The first non-loopback IPv4 address of this machine (or $VKUBELET_POD_IP). */
export function defaultInternalIP(): string {
  if (process.env.VKUBELET_POD_IP) return process.env.VKUBELET_POD_IP;
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  throw new Error('no non-loopback IPv4 address found: pass --internal-ip');
}

/** Builds the manager with the node and pod controllers as runnables (no leader election: a node agent). */
export function buildVirtualKubelet(flags: Flags, logger: Logger): VirtualKubelet {
  const kubeConfig = loadKubeConfig({ kubeconfig: flags.kubeconfig });
  const manager = new Manager({
    kubeConfig,
    program: { name: 'ctrlkit-virtual-kubelet', version: packageJson.version },
    logger,
    metricsBindAddress: flags.metricsAddr,
    healthProbeBindAddress: flags.healthzAddr,
    qps: flags.kubeApiQps,
    burst: flags.kubeApiBurst,
  });
  // Every request, the informers' included, goes through the manager's one client.
  const { client } = manager;
  const internalIP = flags.internalIP ?? defaultInternalIP();
  const provider = newProvider(flags, internalIP);
  const node = virtualNode(flags);
  provider.configureNode(node);
  const nodeController = new NodeController({
    provider: new NaiveNodeProvider(),
    node,
    nodes: client,
    pingIntervalMs: flags.nodePingIntervalMs,
    statusUpdateIntervalMs: flags.nodeStatusUpdateIntervalMs,
    lease: flags.enableNodeLease
      ? {
          client,
          leaseDurationSeconds: flags.nodeLeaseDurationSeconds,
        }
      : undefined,
    logger,
  });
  const factory = manager.informerFactory;
  const podInformer = factory.forResource<Wire<V1Pod>>('pods', {
    fieldSelector: `spec.nodeName=${flags.nodename}`,
  });
  const podController = new PodController({
    podClient: client,
    podInformer,
    configMapInformer: factory.forResource('configmaps'),
    secretInformer: factory.forResource('secrets'),
    serviceInformer: factory.forResource('services'),
    eventRecorder: manager.getEventRecorder(`${flags.nodename}/pod-controller`),
    provider,
    metricsProvider: manager.metricsProvider,
    logger,
  });
  registerPodsGauge(manager, podInformer);
  addKubeletApi(manager, flags, provider, internalIP, logger);
  addControllers(manager, flags, nodeController, podController, () =>
    killLeftovers(provider, logger),
  );
  return { manager, provider, nodeController, podController };
}

/** The provider `--provider` names: `process` runs containers as processes, else the mock. */
function newProvider(flags: Flags, internalIP: string): MockProvider | ProcessProvider {
  return flags.provider === 'process'
    ? new ProcessProvider({
        internalIP,
        daemonEndpointPort: flags.listenPort,
        nodeName: flags.nodename,
      })
    : new MockProvider({
        internalIP,
        daemonEndpointPort: flags.listenPort,
        startLatencyMs: flags.mockStartLatencyMs,
        createFailureRate: flags.mockCreateFailureRate,
      });
}

/** The virtual Node: virtual-kubelet's labels, and a taint so only pods that tolerate the provider land on it. */
function virtualNode(flags: Flags): Wire<V1Node> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: flags.nodename,
      labels: {
        type: 'virtual-kubelet',
        'kubernetes.io/role': 'agent',
        'kubernetes.io/hostname': flags.nodename,
        'kubernetes.io/os': 'linux',
      },
    },
    spec: {
      taints: [{ key: 'virtual-kubelet.io/provider', value: flags.provider, effect: 'NoSchedule' }],
    },
  };
}

/** The `virtual_kubelet_pods` gauge: pods bound to this node by phase, counted from the informer at scrape. */
function registerPodsGauge(
  manager: Manager,
  podInformer: { indexer: { list(): Wire<V1Pod>[] } },
): void {
  new Gauge({
    name: 'virtual_kubelet_pods',
    help: 'Pods bound to this node, by phase.',
    labelNames: ['phase'],
    registers: [manager.registry],
    collect() {
      this.reset();
      const counts = new Map<string, number>();
      for (const pod of podInformer.indexer.list()) {
        const phase = pod.status?.phase ?? 'Unknown';
        counts.set(phase, (counts.get(phase) ?? 0) + 1);
      }
      for (const [phase, n] of counts) this.set({ phase }, n);
    },
  });
}

/** The kubelet API (logs, exec) as a runnable, on the given certificate or a self-signed one. */
function addKubeletApi(
  manager: Manager,
  flags: Flags,
  provider: MockProvider | ProcessProvider,
  internalIP: string,
  logger: Logger,
): void {
  const certFiles =
    flags.tlsCertFile !== undefined && flags.tlsKeyFile !== undefined
      ? {
          cert: readFileSync(flags.tlsCertFile, 'utf8'),
          key: readFileSync(flags.tlsKeyFile, 'utf8'),
        }
      : undefined;
  manager.add({
    name: 'kubelet-api',
    needLeaderElection: false,
    start: async (signal) => {
      const cert =
        certFiles ?? (await selfSignedCert(flags.nodename, [internalIP, flags.nodename]));
      const { server } = await startKubeletApiServer({
        nodeName: flags.nodename,
        provider,
        cert,
        port: flags.listenPort,
        logger,
      });
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/**
 * The process provider's leftovers of an earlier run of this node (killed, or stopped): they
 * would run beside the pods it starts afresh.
 */
function killLeftovers(provider: MockProvider | ProcessProvider, logger: Logger): void {
  if (!(provider instanceof ProcessProvider)) return;
  const killed = provider.killLeftovers();
  if (killed > 0) logger.info({ killed }, 'killed container processes an earlier run left');
}

/**
 * The node and pod controllers as runnables (`beforePods` runs as the pod controller starts),
 * with a health check and their readiness checks.
 */
function addControllers(
  manager: Manager,
  flags: Flags,
  nodeController: NodeController,
  podController: PodController,
  beforePods: () => void,
): void {
  manager.add({
    name: 'node-controller',
    needLeaderElection: false,
    start: (signal) => nodeController.run(signal),
  });
  manager.add({
    name: 'pod-controller',
    needLeaderElection: false,
    start: (signal) => {
      beforePods();
      return podController.run(signal, flags.podSyncWorkers);
    },
  });
  let nodeReady = false;
  let podsReady = false;
  void nodeController.ready.then(() => {
    nodeReady = true;
  });
  void podController.ready.then(() => {
    podsReady = true;
  });
  manager.addHealthzCheck('ping', () => {});
  manager.addReadyzCheck('node', () => {
    if (!nodeReady) throw new Error('the node is not registered yet');
  });
  manager.addReadyzCheck('pods', () => {
    if (!podsReady) throw new Error('the pod controller is not running yet');
  });
}
