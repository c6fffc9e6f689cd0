import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InvalidArgumentError } from '@ctrlkit/core';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { PrometheusRestClientMetrics } from '../metrics/rest-client-metrics.js';
import { ApiClientFactory, DEFAULT_BURST, DEFAULT_QPS } from './api-client-factory.js';

function nowhere(): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return config;
}

describe('ApiClientFactory', () => {
  it("uses controller-runtime's 20 qps and burst 30, not client-go's 5 and 10", () => {
    expect([DEFAULT_QPS, DEFAULT_BURST]).toEqual([20, 30]);
  });

  it.each([
    ['qps', { qps: 0 }],
    ['qps', { qps: -1 }],
    ['burst', { burst: 0 }],
    ['burst', { burst: 2.5 }],
    ['userAgent', { userAgent: ' ' }],
  ])('rejects an invalid %s naming it', (field, options) => {
    expect(() => new ApiClientFactory(nowhere(), options)).toThrow(
      expect.objectContaining({ field }) as InvalidArgumentError,
    );
  });

  it('sends the user agent on every request of every client', async () => {
    // A plain HTTP listener that records the User-Agent header of what it receives.
    const agents: Array<string | undefined> = [];
    const headerCapture = createServer((request, response) => {
      agents.push(request.headers['user-agent']);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"resources":[]}');
    });
    await new Promise<void>((resolve) => headerCapture.listen(0, '127.0.0.1', resolve));
    const { port } = headerCapture.address() as AddressInfo;
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const factory = new ApiClientFactory(config, { userAgent: 'my-app/1.2.3' });
    await factory.makeApiClient(CoreV1Api).getAPIResources();
    await factory.makeApiClient(CoreV1Api).getAPIResources();
    await new Promise<void>((resolve) => headerCapture.close(() => resolve()));
    expect(agents).toEqual(['my-app/1.2.3', 'my-app/1.2.3']);
  });

  it('sends the requests of all its clients over kept-alive connections, with the kubeconfig credentials', async () => {
    let connections = 0;
    const seen: Array<[string | undefined, string | undefined, string | undefined]> = [];
    const server = createServer((request, response) => {
      seen.push([request.method, request.url, request.headers.authorization]);
      request.resume();
      request.on('end', () => {
        const status = request.method === 'DELETE' ? 404 : 200;
        response.writeHead(status, { 'Content-Type': 'application/json' });
        response.end(
          status === 404
            ? '{"kind":"Status","code":404,"reason":"NotFound"}'
            : '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"a"}}',
        );
      });
    });
    server.on('connection', () => {
      connections++;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const config = new KubeConfig();
    config.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'u', token: 'secret' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const factory = new ApiClientFactory(config);
    const one = factory.makeApiClient(CoreV1Api);
    const two = factory.makeApiClient(CoreV1Api);
    expect((await one.readNamespace({ name: 'a' })).metadata?.name).toBe('a');
    expect(
      (await two.createNamespace({ body: { metadata: { name: 'a' } }, dryRun: 'All' })).metadata
        ?.name,
    ).toBe('a');
    await expect(one.deleteNamespace({ name: 'a' })).rejects.toMatchObject({ code: 404 });
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(seen).toEqual([
      ['GET', '/api/v1/namespaces/a', 'Bearer secret'],
      ['POST', '/api/v1/namespaces?dryRun=All', 'Bearer secret'],
      ['DELETE', '/api/v1/namespaces/a', 'Bearer secret'],
    ]);
    expect(connections).toBe(1);
  });

  it("counts a request that got no answer under code '<error>'", async () => {
    const registry = new Registry();
    const factory = new ApiClientFactory(nowhere(), {
      metrics: new PrometheusRestClientMetrics(registry),
    });
    await expect(factory.makeApiClient(CoreV1Api).listNamespace()).rejects.toThrow();
    expect(await registry.metrics()).toContain(
      'rest_client_requests_total{code="<error>",method="GET",host="127.0.0.1:1"} 1',
    );
  });
});
