// One @ctrlkit/node-controller node agent for the benchmark: NodeController (v1 lease) and
// PodController with an in-memory provider that behaves as virtual-kubelet's mock (and as the
// Go side's, tooling/go-bench/virtual-kubelet). Same protocol as the Go program: prints
// {"kind":"ready"}; stdin "reset" zeroes the request counter, "stats" prints the counters, the
// CPU time used since the reset and memory; EOF stops. API requests are counted per call (client methods and informer requests).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  NaiveNodeProvider,
  NodeController,
  notFound,
  PodController,
} from '@ctrlkit/node-controller';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { ApiClientFactory, RestClient } from '@ctrlkit/runtime/client';
import { CoreV1EventSink, EventRecorder } from '@ctrlkit/runtime/events';
import { newItemExponentialFailureRateLimiter } from '@ctrlkit/workqueue';
import { CoordinationV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';

const { values } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    nodename: { type: 'string' },
    workers: { type: 'string', default: '1' },
  },
});
const emit = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);

let requests = 0;
const byVerb = {};
const count = (verb) => {
  requests++;
  byVerb[verb] = (byVerb[verb] ?? 0) + 1;
};
const verbOf = (method) =>
  /^(read|list)/.test(method)
    ? 'GET'
    : /^create/.test(method)
      ? 'POST'
      : /^replace/.test(method)
        ? 'PUT'
        : /^patch/.test(method)
          ? 'PATCH'
          : /^delete/.test(method)
            ? 'DELETE'
            : method;
const counted = (api) =>
  new Proxy(api, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args) => {
        count(verbOf(prop));
        return value.apply(target, args);
      };
    },
  });

const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(values.kubeconfig);
// As the app's Manager (and no client-side limit, as the Go side's QPS 10000).
const clients = new ApiClientFactory(kubeConfig, { qps: Number.POSITIVE_INFINITY });
const core = counted(clients.makeApiClient(CoreV1Api));
const leases = counted(clients.makeApiClient(CoordinationV1Api));

const pods = new Map();
let notify = () => {};
const key = (p) => `${p.metadata.namespace}/${p.metadata.name}`;
const provider = {
  notifyPods: (_s, cb) => {
    notify = cb;
  },
  async createPod(_s, pod) {
    const now = new Date();
    const running = structuredClone(pod);
    running.status = {
      phase: 'Running',
      hostIP: '1.2.3.4',
      podIP: '5.6.7.8',
      startTime: now,
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: 'True' },
        { type: 'PodScheduled', status: 'True' },
      ],
      containerStatuses: pod.spec.containers.map((c) => ({
        name: c.name,
        image: c.image,
        imageID: '',
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: now } },
      })),
    };
    pods.set(key(pod), running);
    notify(structuredClone(running));
  },
  async updatePod(_s, pod) {
    const updated = { ...structuredClone(pod), status: pods.get(key(pod))?.status };
    pods.set(key(pod), updated);
    notify(structuredClone(updated));
  },
  async deletePod(_s, pod) {
    if (!pods.delete(key(pod))) throw notFound('pod not found');
    const now = new Date();
    const done = structuredClone(pod);
    done.status = {
      ...done.status,
      phase: 'Succeeded',
      reason: 'MockProviderPodDeleted',
      containerStatuses: (done.status?.containerStatuses ?? []).map((cs) => ({
        ...cs,
        ready: false,
        state: {
          terminated: {
            exitCode: 0,
            reason: 'MockProviderPodContainerDeleted',
            finishedAt: now,
            startedAt: cs.state?.running?.startedAt,
          },
        },
      })),
    };
    notify(done);
  },
  async getPod(_s, ns, name) {
    const pod = pods.get(`${ns}/${name}`);
    if (pod === undefined) throw notFound('pod not found');
    return structuredClone(pod);
  },
  async getPodStatus(s, ns, name) {
    return (await provider.getPod(s, ns, name)).status;
  },
  async getPods() {
    return [...pods.values()].map((p) => structuredClone(p));
  },
};

const stop = new AbortController();
const node = new NodeController({
  provider: new NaiveNodeProvider(),
  node: {
    metadata: {
      name: values.nodename,
      labels: { type: 'virtual-kubelet', 'kubernetes.io/role': 'agent' },
    },
    spec: { taints: [{ key: 'virtual-kubelet.io/provider', value: 'mock', effect: 'NoSchedule' }] },
    status: {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is ready.' },
      ],
    },
  },
  nodes: core,
  lease: { client: leases },
});
const rest = new RestClient(kubeConfig, {
  onRequest: (info) => count(info.verb === 'watch' ? 'WATCH' : 'GET'),
});
const podFactory = new SharedInformerFactory(rest, { defaultResyncPeriodMs: 60_000 });
const limiter = () => newItemExponentialFailureRateLimiter(5, 1_000_000);
const recorder = new EventRecorder({
  component: `${values.nodename}/pod-controller`,
  sink: new CoreV1EventSink(core),
});
const controller = new PodController({
  podClient: core,
  podInformer: podFactory.forResource('pods', {
    fieldSelector: `spec.nodeName=${values.nodename}`,
  }),
  configMapInformer: podFactory.forResource('configmaps'),
  secretInformer: podFactory.forResource('secrets'),
  serviceInformer: podFactory.forResource('services'),
  eventRecorder: recorder,
  provider,
  syncPodsFromKubernetesRateLimiter: limiter(),
  deletePodsFromKubernetesRateLimiter: limiter(),
  syncPodStatusFromProviderRateLimiter: limiter(),
});
const nodeRun = node.run(stop.signal);
podFactory.start(stop.signal);
const podRun = controller.run(stop.signal, Number(values.workers));
let peakHeap = 0;
const sampler = setInterval(() => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}, 50);
await Promise.all([node.ready, controller.ready]);
emit({ kind: 'ready' });

const statusKB = (field) => {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.split(/\s+/)[1]) : 0;
};
let cpuAtReset = process.cpuUsage();
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'reset') {
    requests = 0;
    cpuAtReset = process.cpuUsage();
    for (const k of Object.keys(byVerb)) delete byVerb[k];
    peakHeap = process.memoryUsage().heapUsed;
    emit({ kind: 'reset' });
  } else if (line.trim() === 'stats') {
    emit({
      kind: 'stats',
      requests,
      byVerb: { ...byVerb },
      cpuMs: ((c) => (c.user + c.system) / 1000)(process.cpuUsage(cpuAtReset)),
      rssMB: statusKB('VmRSS') / 1024,
      peakRssMB: statusKB('VmHWM') / 1024,
      heapMB: process.memoryUsage().heapUsed / 2 ** 20,
      peakHeapMB: peakHeap / 2 ** 20,
    });
  }
}
clearInterval(sampler);
stop.abort();
await Promise.allSettled([nodeRun, podRun]);
await recorder.shutDown();
process.exit(0);
