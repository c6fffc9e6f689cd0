// One @ctrlkit/node-controller node agent for the benchmark: NodeController (v1 lease) and
// PodController with an in-memory provider that behaves as virtual-kubelet's mock (and as the
// Go side's, tooling/go-bench/virtual-kubelet). Same protocol as the Go program: prints
// {"kind":"ready"}; stdin "reset" zeroes the request counter, "stats" prints the counters, the
// CPU time used since the reset and memory; EOF stops. API requests are counted as the one client
// sends them (informer LIST and WATCH included), by verb.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { getHeapStatistics, writeHeapSnapshot } from 'node:v8';
import {
  NaiveNodeProvider,
  NodeController,
  notFound,
  PodController,
} from '@ctrlkit/node-controller';
import { createClient, formatTime, loadKubeConfig } from '@ctrlkit/runtime/client';
import { EventRecorder } from '@ctrlkit/runtime/events';
import { SharedInformerFactory } from '@ctrlkit/runtime/informers';
import { newItemExponentialFailureRateLimiter } from '@ctrlkit/workqueue';

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
const VERBS = { list: 'GET', get: 'GET', watch: 'WATCH' };
const count = ({ verb }) => {
  const name = VERBS[verb] ?? verb.toUpperCase();
  requests++;
  byVerb[name] = (byVerb[name] ?? 0) + 1;
};

// As the app's Manager makes it: one client for everything (and no client-side limit, as the
// Go side's QPS 10000).
const client = createClient(loadKubeConfig({ kubeconfig: values.kubeconfig }), {
  qps: Number.POSITIVE_INFINITY,
  program: { name: 'vk-bench', version: '0.0.0' },
  onRequest: count,
});

const pods = new Map();
let notify = () => {};
const key = (p) => `${p.metadata.namespace}/${p.metadata.name}`;
const provider = {
  notifyPods: (_s, cb) => {
    notify = cb;
  },
  async createPod(_s, pod) {
    const now = formatTime(Date.now());
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
    const now = formatTime(Date.now());
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
  // No such pod: undefined, which the PodLifecycleHandler contract allows besides a
  // NotFound error (what Go's mock returns: an error value costs Go nothing, a thrown
  // Error costs a stack trace here).
  async getPod(_s, ns, name) {
    const pod = pods.get(`${ns}/${name}`);
    return pod === undefined ? undefined : structuredClone(pod);
  },
  async getPodStatus(s, ns, name) {
    const pod = await provider.getPod(s, ns, name);
    if (pod === undefined) throw notFound('pod not found');
    return pod.status;
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
  nodes: client,
  lease: { client },
});
const podFactory = new SharedInformerFactory(client, { defaultResyncPeriodMs: 60_000 });
const limiter = () => newItemExponentialFailureRateLimiter(5, 1_000_000);
const recorder = new EventRecorder({
  component: `${values.nodename}/pod-controller`,
  client,
});
const controller = new PodController({
  podClient: client,
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
// The V8 heap alone (process.memoryUsage() also reads the RSS from /proc: a syscall every 50 ms
// that the agent's CPU time would count).
const sampler = setInterval(() => {
  peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
}, 50);
await Promise.all([node.ready, controller.ready]);
emit({ kind: 'ready' });

/** CPU ms the measurement's own full GCs took, left out of the agent's CPU time. */
let measuringMs = 0;
/** The heap after a full GC (what is live), when run with --expose-gc. */
const liveHeapMB = () => {
  if (typeof globalThis.gc !== 'function') return undefined;
  const before = process.cpuUsage();
  globalThis.gc();
  const spent = process.cpuUsage(before);
  measuringMs += (spent.user + spent.system) / 1000;
  return getHeapStatistics().used_heap_size / 2 ** 20;
};
const statusKB = (field) => {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.split(/\s+/)[1]) : 0;
};
// CTRLKIT_BENCH_PROFILE=<dir>: a CPU profile of the agent from `reset` to the first `stats`
// (creation to Running), and a heap snapshot at that `stats`, written into <dir>.
const profileDir = process.env.CTRLKIT_BENCH_PROFILE;
const profiler = profileDir === undefined ? undefined : new Session();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    profiler.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
const profileName = `${values.nodename}-${process.pid}`;
let profiling = false;

let cpuAtReset = process.cpuUsage();
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'reset') {
    if (profiler !== undefined && !profiling) {
      profiler.connect();
      profiling = true;
      await post('Profiler.enable');
      await post('Profiler.start');
    }
    requests = 0;
    cpuAtReset = process.cpuUsage();
    measuringMs = 0;
    for (const k of Object.keys(byVerb)) delete byVerb[k];
    peakHeap = getHeapStatistics().used_heap_size;
    emit({ kind: 'reset' });
  } else if (line.trim() === 'stats') {
    if (profiling) {
      profiling = false;
      const { profile } = await post('Profiler.stop');
      profiler.disconnect();
      writeFileSync(join(profileDir, `${profileName}.cpuprofile`), JSON.stringify(profile));
      writeHeapSnapshot(join(profileDir, `${profileName}.heapsnapshot`));
    }
    emit({
      kind: 'stats',
      requests,
      byVerb: { ...byVerb },
      cpuMs: ((c) => (c.user + c.system) / 1000 - measuringMs)(process.cpuUsage(cpuAtReset)),
      rssMB: statusKB('VmRSS') / 1024,
      peakRssMB: statusKB('VmHWM') / 1024,
      heapMB: process.memoryUsage().heapUsed / 2 ** 20,
      peakHeapMB: peakHeap / 2 ** 20,
      liveHeapMB: liveHeapMB(),
    });
  }
}
clearInterval(sampler);
stop.abort();
await Promise.allSettled([nodeRun, podRun]);
await recorder.shutDown();
process.exit(0);
