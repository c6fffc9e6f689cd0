// metrics-server drops a node or pod whose cumulative CPU decreases between two scrapes
// ("unexpected decrease in cumulative CPU usage value"); the mock's draws a new usage each
// scrape, so this scrapes both endpoints twice with usages that go up and down.
import { request } from 'node:https';
import { noopLogger } from '@ctrlkit/core';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MockProvider } from '../providers/mock-provider.js';
import { startKubeletApiServer } from './kubelet-api-server.js';
import { selfSignedCert } from './self-signed-cert.js';

const draws = [0.9, 0.1];
let draw = 0;
const provider = new MockProvider({
  internalIP: '127.0.0.1',
  random: () => draws[draw++ % draws.length] as number,
});
let port = 0;
let close: () => void = () => {};

function get(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const signal = new AbortController().signal;
  for (const name of ['p1', 'p2']) {
    await provider.createPod(signal, {
      metadata: { name, namespace: 'ns', uid: name },
      spec: { containers: [{ name: 'a' }, { name: 'b' }] },
    });
  }
  const cert = await selfSignedCert('vk-cpu', ['127.0.0.1']);
  const started = await startKubeletApiServer({
    nodeName: 'vk-cpu',
    provider,
    cert,
    host: '127.0.0.1',
    port: 0,
    logger: noopLogger,
  });
  port = started.port;
  close = () => started.server.close();
});
afterAll(() => close());

/** Every cumulative CPU series of a /metrics/resource scrape, by name and labels. */
async function cpuSeries(): Promise<Map<string, number>> {
  const series = new Map<string, number>();
  for (const family of parsePrometheusTextFormat(await get('/metrics/resource'))) {
    if (!family.name.endsWith('_cpu_usage_seconds_total')) continue;
    for (const m of family.metrics)
      series.set(`${family.name}${JSON.stringify(m.labels ?? {})}`, Number(m.value));
  }
  return series;
}

/** Every usageCoreNanoSeconds of a /stats/summary scrape: the node's, each pod's and container's. */
async function summaryCpu(): Promise<Map<string, number>> {
  const summary = JSON.parse(await get('/stats/summary'));
  const series = new Map<string, number>([['node', summary.node.cpu.usageCoreNanoSeconds]]);
  for (const pod of summary.pods) {
    series.set(pod.podRef.name, pod.cpu.usageCoreNanoSeconds);
    for (const c of pod.containers)
      series.set(`${pod.podRef.name}/${c.name}`, c.cpu.usageCoreNanoSeconds);
  }
  return series;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 30));

it('cumulative CPU never decreases between two scrapes of /metrics/resource, for the node, pods and containers', async () => {
  const first = await cpuSeries();
  await pause();
  const second = await cpuSeries();
  expect(first.size).toBe(1 + 2 + 4);
  expect([...second.keys()]).toEqual([...first.keys()]);
  for (const [series, value] of first)
    expect(second.get(series), series).toBeGreaterThanOrEqual(value);
  expect(second.get('node_cpu_usage_seconds_total{}')).toBeGreaterThan(
    first.get('node_cpu_usage_seconds_total{}') as number,
  );
});

it('cumulative CPU never decreases between two scrapes of /stats/summary, also when a pod goes', async () => {
  const first = await summaryCpu();
  await pause();
  const second = await summaryCpu();
  for (const [series, value] of first)
    expect(second.get(series), series).toBeGreaterThanOrEqual(value);
  expect(second.get('node')).toBeGreaterThan(first.get('node') as number);

  const [p1] = await provider.getPods();
  await provider.deletePod(new AbortController().signal, p1 as never);
  const third = await summaryCpu();
  expect(third.get('node')).toBeGreaterThanOrEqual(second.get('node') as number);
  expect(third.has('p1')).toBe(false);
});
