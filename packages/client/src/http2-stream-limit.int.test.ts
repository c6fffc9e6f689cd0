// More watches than one HTTP/2 connection's stream limit, against a real kube-apiserver
// started with a low `--http2-max-streams-per-connection`: every watch starts and sees its
// event, on as many connections as the limit needs (as Go's HTTP/2 transport opens them).

import { waitFor } from '@ctrlkit/core/testing';
import { type ControlPlane, createTestNamespace, startControlPlane } from '@ctrlkit/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from './client.js';

/** The apiserver's streams per connection: 150 watches need three connections. */
const STREAMS_PER_CONNECTION = 50;
const WATCHES = 150;

let plane: ControlPlane;

beforeAll(async () => {
  plane = await startControlPlane({
    apiServerFlags: { 'http2-max-streams-per-connection': String(STREAMS_PER_CONNECTION) },
  });
}, 180_000);
afterAll(async () => {
  await plane?.stop();
});

describe('watches beyond one HTTP/2 connection', () => {
  it(`starts ${WATCHES} watches on one client with the apiserver at ${STREAMS_PER_CONNECTION} streams per connection, each seeing the event`, async () => {
    const client = createClient(plane.kubeConfig, { qps: Number.POSITIVE_INFINITY });
    const namespace = await createTestNamespace(plane.kubeConfig);
    const stop = new AbortController();
    const opened = new Set<number>();
    const seen = new Set<number>();
    const watches = Array.from({ length: WATCHES }, (_, i) =>
      client
        .watch(
          `/api/v1/namespaces/${namespace}/configmaps`,
          {},
          'application/json',
          (event) => {
            if (event.type === 'ADDED') seen.add(i);
          },
          stop.signal,
          undefined,
          () => opened.add(i),
        )
        .catch((error: unknown) => {
          if (!stop.signal.aborted) throw error;
        }),
    );
    try {
      await waitFor(`all ${WATCHES} watches to open`, () => opened.size === WATCHES, {
        timeoutMs: 30_000,
      });
      await client.create('configmaps', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'seen-by-all', namespace },
      });
      await waitFor(`all ${WATCHES} watches to see the ConfigMap`, () => seen.size === WATCHES, {
        timeoutMs: 30_000,
      });
      expect(seen.size).toBe(WATCHES);
    } finally {
      stop.abort();
      await Promise.all(watches);
      client.close();
    }
  });
});
