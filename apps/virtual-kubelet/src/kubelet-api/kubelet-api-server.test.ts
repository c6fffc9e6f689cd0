import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { noopLogger } from '@ctrlkit/core';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockProvider } from '../providers/mock-provider.js';
import { startKubeletApiServer } from './kubelet-api-server.js';
import { selfSignedCert } from './self-signed-cert.js';

const provider = new MockProvider({ internalIP: '127.0.0.1', random: () => 0.25 });
const cert = await selfSignedCert('vk-test', ['127.0.0.1', '10.1.2.3', 'vk-test']);
let port = 0;
let close: () => void = () => {};

function get(path: string): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  await provider.createPod(new AbortController().signal, {
    metadata: { name: 'p', namespace: 'ns', uid: 'u' },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });
  const started = await startKubeletApiServer({
    nodeName: 'vk-test',
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

describe('kubelet API', () => {
  it('the self-signed certificate is valid X.509 with the IPs and names as SANs', () => {
    const x509 = new X509Certificate(cert.cert);
    expect(x509.subject).toBe('CN=vk-test');
    expect(x509.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:10.1.2.3, DNS:vk-test');
    expect(x509.checkIP('10.1.2.3')).toBe('10.1.2.3');
    expect(x509.verify(x509.publicKey)).toBe(true);
  });

  it('/pods and /runningpods/ answer a PodList (never an empty body)', async () => {
    for (const path of ['/pods', '/runningpods/']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      const list = JSON.parse(res.body);
      expect(list.kind).toBe('PodList');
      expect(list.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['p']);
    }
  });

  it('/stats/summary and /metrics/resource report the provider stats', async () => {
    const summary = JSON.parse((await get('/stats/summary')).body);
    expect(summary.node.nodeName).toBe('vk-test');
    expect(summary.pods[0].podRef).toEqual({ name: 'p', namespace: 'ns', uid: 'u' });
    const metrics = await get('/metrics/resource');
    expect(metrics.type).toContain('text/plain');
    expect(metrics.body).toMatch(
      /^container_memory_working_set_bytes\{namespace="ns",pod="p",container="c"\} \d+ \d+$/m,
    );
    expect(metrics.body).toContain('scrape_error 0');
  });

  it('/metrics/resource parses as Prometheus text with the labels in the kubelet order (TestGetMetricsResource)', async () => {
    const families = parsePrometheusTextFormat((await get('/metrics/resource')).body);
    const byName = new Map(families.map((f) => [f.name, f]));
    expect([...byName.keys()]).toEqual([
      'node_cpu_usage_seconds_total',
      'node_memory_working_set_bytes',
      'pod_cpu_usage_seconds_total',
      'pod_memory_working_set_bytes',
      'container_cpu_usage_seconds_total',
      'container_memory_working_set_bytes',
      'scrape_error',
    ]);
    expect(byName.get('container_cpu_usage_seconds_total')?.type).toBe('COUNTER');
    expect(byName.get('container_memory_working_set_bytes')?.type).toBe('GAUGE');
    for (const name of [
      'container_cpu_usage_seconds_total',
      'container_memory_working_set_bytes',
    ]) {
      const [sample, ...rest] = byName.get(name)?.metrics ?? [];
      expect(rest).toEqual([]);
      // The upstream suite takes the pod name from the second label.
      expect(Object.entries(sample?.labels ?? {})).toEqual([
        ['namespace', 'ns'],
        ['pod', 'p'],
        ['container', 'c'],
      ]);
      expect(Number(sample?.value)).toBeGreaterThanOrEqual(0);
      expect(Number(sample?.timestamp_ms)).toBeGreaterThan(0);
    }
    const [pod] = byName.get('pod_cpu_usage_seconds_total')?.metrics ?? [];
    expect(pod?.labels).toEqual({ namespace: 'ns', pod: 'p' });
    expect(byName.get('scrape_error')?.metrics).toEqual([{ value: '0' }]);
  });

  it('unknown paths are 404, logs and exec are 501', async () => {
    expect((await get('/nope')).status).toBe(404);
    expect((await get('/containerLogs/ns/p/c')).status).toBe(501);
  });
});
