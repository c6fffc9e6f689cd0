//! Wires a NodeController and a PodController to a provider on a runtime Manager.

import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { CtrlkitError, type Logger } from '@ctrlkit/core';
import { NodeController, PodController } from '@ctrlkit/node-controller';
import { DraManager, PluginWatcher } from '@ctrlkit/node-controller/dra';
import { loadKubeConfig, Manager } from '@ctrlkit/runtime';
import type { Wire } from '@ctrlkit/runtime/client';
import type { SharedIndexInformer } from '@ctrlkit/runtime/informers';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { Gauge } from 'prom-client';
import packageJson from '../package.json' with { type: 'json' };
import type { Flags } from './flags.js';
import { EXTEND_WEB_SOCKETS_TO_KUBELET } from './kubelet-api/container-streams.js';
import { startKubeletApiServer } from './kubelet-api/kubelet-api-server.js';
import { selfSignedCert } from './kubelet-api/self-signed-cert.js';
import { MockProvider } from './providers/mock-provider.js';
import { ProcessExecProvider } from './providers/process-exec-provider.js';
import { ProcessProvider } from './providers/process-provider.js';

/** What `runVirtualKubelet` built, for tests and embedding. */
export interface VirtualKubelet {
  manager: Manager;
  provider: MockProvider | ProcessProvider;
  nodeController: NodeController;
  podController: PodController;
  /** The informer of the pods bound to the node. */
  podInformer: SharedIndexInformer<Wire<V1Pod>>;
  /** The DRA plugins registered in `--plugins-registry-dir`. */
  pluginWatcher: PluginWatcher;
  /** Prepares the pods' DRA claims. */
  draManager: DraManager;
}

/** `--startup-timeout` passed before the informers and the pod controller were ready. */
export class StartupTimeoutError extends CtrlkitError {
  readonly reason = 'StartupTimeout' as const;
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
  const kubeConfig = loadKubeConfig({
    kubeconfig: flags.kubeconfig,
    insecureSkipTlsVerify: flags.insecureSkipTlsVerify,
    logger,
  });
  const manager = new Manager({
    kubeConfig,
    program: { name: 'ctrlkit-virtual-kubelet', version: packageJson.version },
    logger,
    metricsBindAddress: flags.metricsAddr,
    healthProbeBindAddress: flags.healthzAddr,
    qps: flags.kubeApiQps,
    burst: flags.kubeApiBurst,
    contentType: flags.kubeApiContentType,
  });
  // Every request, the informers' included, goes through the manager's one client.
  const { client } = manager;
  warnIgnoredSettings(flags, logger);
  const internalIP = flags.internalIP ?? defaultInternalIP();
  const provider = newProvider(flags, internalIP, logger);
  const node = virtualNode(flags);
  provider.configureNode(node);
  const nodeController = new NodeController({
    // The pods' provider is the node's too: its ping is the heartbeat (`--node-ping-timeout`).
    provider,
    node,
    nodes: client,
    pingIntervalMs: flags.nodePingIntervalMs,
    pingTimeoutMs: flags.nodePingTimeoutMs,
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
  // `--full-resync-period` is every informer's, as upstream's two informer factories'.
  const resyncPeriodMs = flags.fullResyncPeriodMs;
  const podInformer = factory.forResource<Wire<V1Pod>>('pods', {
    fieldSelector: `spec.nodeName=${flags.nodename}`,
    resyncPeriodMs,
  });
  const pluginWatcher = new PluginWatcher({ dir: flags.pluginsRegistryDir, logger });
  const draManager = new DraManager({ client, plugins: pluginWatcher, podInformer, logger });
  const podController = new PodController({
    podClient: client,
    podInformer,
    configMapInformer: factory.forResource('configmaps', { resyncPeriodMs }),
    secretInformer: factory.forResource('secrets', { resyncPeriodMs }),
    serviceInformer: factory.forResource('services', { resyncPeriodMs }),
    eventRecorder: manager.getEventRecorder(`${flags.nodename}/pod-controller`),
    provider,
    resourcePreparer: draManager,
    ...(flags.providerTimeoutMs !== undefined && { providerTimeoutMs: flags.providerTimeoutMs }),
    metricsProvider: manager.metricsProvider,
    logger,
  });
  registerPodsGauge(manager, podInformer);
  addKubeletApi(manager, flags, provider, internalIP, logger);
  addControllers(manager, flags, nodeController, podController, () =>
    killLeftovers(provider, logger),
  );
  addDra(manager, pluginWatcher, draManager);
  return {
    manager,
    provider,
    nodeController,
    podController,
    podInformer,
    pluginWatcher,
    draManager,
  };
}

/**
 * Runs `vk` until `signal` aborts. With a positive `startupTimeoutMs`, as upstream's
 * `--startup-timeout`: when the informers and the pod controller are not ready within it,
 * the manager is stopped and this rejects with a {@link StartupTimeoutError} (the program
 * exits 1); the node is registered only once they are ready (see {@link buildVirtualKubelet}).
 */
export async function runVirtualKubelet(
  vk: VirtualKubelet,
  startupTimeoutMs: number,
  signal: AbortSignal,
): Promise<void> {
  if (startupTimeoutMs <= 0) return vk.manager.start(signal);
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, startupTimeoutMs);
  void vk.podController.ready.then(() => clearTimeout(timer));
  try {
    await vk.manager.start(stop.signal);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  if (timedOut) {
    throw new StartupTimeoutError(
      `the informers and the pod controller were not ready within the startup timeout (${startupTimeoutMs} ms)`,
    );
  }
}

/** Logs what the command line asks for and this program ignores: unknown provider config keys, `--cluster-domain`. */
function warnIgnoredSettings(flags: Flags, logger: Logger): void {
  const unknownKeys = flags.providerConfig?.unknownKeys ?? [];
  if (unknownKeys.length > 0) {
    logger.warn(
      { unknownKeys, node: flags.nodename },
      `--provider-config: ignoring unknown keys of node "${flags.nodename}": ${unknownKeys.join(', ')}`,
    );
  }
  if (flags.clusterDomain !== undefined) {
    logger.warn(
      { clusterDomain: flags.clusterDomain },
      '--cluster-domain has no effect: the mock and process providers have no pod DNS',
    );
  }
}

/** The provider `--provider` names: `process` runs containers as processes, else the mock. */
function newProvider(
  flags: Flags,
  internalIP: string,
  logger: Logger,
): MockProvider | ProcessProvider {
  const capacity = flags.providerConfig?.capacity;
  return flags.provider === 'process'
    ? new ProcessProvider({
        internalIP,
        daemonEndpointPort: flags.listenPort,
        nodeName: flags.nodename,
        ...(capacity !== undefined && { capacity }),
        cdi: { specDirs: flags.cdiSpecDirs, logger },
      })
    : new MockProvider({
        internalIP,
        daemonEndpointPort: flags.listenPort,
        ...(capacity !== undefined && { capacity }),
        operatingSystem: flags.operatingSystem.toLowerCase(),
        startLatencyMs: flags.mockStartLatencyMs,
        pingLatencyMs: flags.mockPingLatencyMs,
        createFailureRate: flags.mockCreateFailureRate,
        hangRate: flags.mockHangRate,
      });
}

/**
 * The virtual Node: virtual-kubelet's labels (the OS of `--os`, lower case), and its taint
 * (`--taint*`/`VKUBELET_TAINT_*`, none with `--disable-taint`) so only pods that tolerate the
 * provider land on it, and upstream mock's `providerID` from `--provider-config`; it declares
 * `ExtendWebSocketsToKubelet` (its kubelet API serves exec and attach over WebSocket).
 */
function virtualNode(flags: Flags): Wire<V1Node> {
  const os = flags.operatingSystem.toLowerCase();
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: flags.nodename,
      labels: {
        type: 'virtual-kubelet',
        'kubernetes.io/role': 'agent',
        'kubernetes.io/hostname': flags.nodename,
        'kubernetes.io/os': os,
        'beta.kubernetes.io/os': os,
      },
    },
    spec: {
      ...(flags.providerConfig?.providerID !== undefined && {
        providerID: flags.providerConfig.providerID,
      }),
      ...(flags.taint !== undefined && { taints: [{ ...flags.taint }] }),
    },
    // The kubelet API takes exec and attach WebSockets as they are: the apiserver then proxies them.
    status: { declaredFeatures: [EXTEND_WEB_SOCKETS_TO_KUBELET] },
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
        ...(provider instanceof ProcessProvider && {
          exec: new ProcessExecProvider(provider, flags.nodename),
          portForward: new ProcessExecProvider(provider, flags.nodename),
        }),
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

/** The DRA node side as runnables: the plugin watcher (`--plugins-registry-dir`) and the unprepare loop. */
function addDra(manager: Manager, pluginWatcher: PluginWatcher, draManager: DraManager): void {
  manager.add({
    name: 'dra-plugin-watcher',
    needLeaderElection: false,
    start: (signal) => pluginWatcher.run(signal),
  });
  manager.add({
    name: 'dra-manager',
    needLeaderElection: false,
    start: (signal) => draManager.run(signal),
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
    start: async (signal) => {
      // With a startup timeout the node is advertised only once the pods are served, as upstream.
      if (flags.startupTimeoutMs > 0 && !(await readyOrAborted(podController.ready, signal))) {
        return;
      }
      await nodeController.run(signal);
    },
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

/** True once `ready` resolves, false if `signal` aborts first. */
function readyOrAborted(ready: Promise<void>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const onAbort = (): void => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    void ready.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    });
  });
}
