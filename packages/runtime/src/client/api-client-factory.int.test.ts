import diagnostics from 'node:diagnostics_channel';
import { FakeClock } from '@ctrlkit/core/testing';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import {
  CoreV1Api,
  Observable,
  type ObservableMiddleware,
  type RequestContext,
  type ResponseContext,
} from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { PrometheusRestClientMetrics } from '../metrics/rest-client-metrics.js';
import { ApiClientFactory } from './api-client-factory.js';

const settle = async () => {
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('ApiClientFactory on a real apiserver', () => {
  it('opens one TLS connection for requests in sequence (client-node 2.0.1 alone opens one per request)', async () => {
    const sockets: unknown[] = [];
    const onSocket = (message: unknown) => void sockets.push(message);
    diagnostics.subscribe('net.client.socket', onSocket);
    try {
      const api = new ApiClientFactory(testKubeConfig(), {
        qps: Number.POSITIVE_INFINITY,
      }).makeApiClient(CoreV1Api);
      for (let i = 0; i < 10; i++) await api.listNamespace({ limit: 1 });
      expect(sockets).toHaveLength(1);
    } finally {
      diagnostics.unsubscribe('net.client.socket', onSocket);
    }
  });

  it('holds requests beyond the burst until the bucket refills at qps, across clients', async () => {
    const clock = new FakeClock();
    const factory = new ApiClientFactory(testKubeConfig(), { qps: 1, burst: 2, clock });
    const one = factory.makeApiClient(CoreV1Api);
    const two = factory.makeApiClient(CoreV1Api);
    const done: number[] = [];
    const requests = [one, two, one].map((api, i) =>
      api.listNamespace({ limit: 1 }).then(() => void done.push(i)),
    );
    await Promise.all(requests.slice(0, 2));
    await settle();
    expect(done.sort()).toEqual([0, 1]);
    clock.step(999);
    await settle();
    expect(done).toHaveLength(2);
    clock.step(1);
    await Promise.all(requests);
    expect(done).toHaveLength(3);
  });

  it('does not send a request aborted while it waits for a token', async () => {
    const clock = new FakeClock();
    const registry = new Registry();
    const factory = new ApiClientFactory(testKubeConfig(), {
      qps: 1,
      burst: 1,
      clock,
      metrics: new PrometheusRestClientMetrics(registry),
    });
    const api = factory.makeApiClient(CoreV1Api);
    await api.listNamespace({ limit: 1 });
    const abort = new AbortController();
    const withSignal: ObservableMiddleware = {
      pre: (context: RequestContext) => {
        context.setSignal(abort.signal);
        return new Observable(Promise.resolve(context));
      },
      post: (response: ResponseContext) => new Observable(Promise.resolve(response)),
    };
    const options = { middleware: [withSignal], middlewareMergeStrategy: 'append' };
    const waiting = api.listNamespace({ limit: 1 }, options as never);
    await settle();
    abort.abort();
    await expect(waiting).rejects.toThrow();
    const counted = (await registry.getSingleMetric('rest_client_requests_total')?.get())?.values;
    expect(counted?.map((v) => v.value).reduce((a, b) => a + b, 0)).toBe(1);
  });
});
