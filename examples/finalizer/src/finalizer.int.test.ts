import { statusCode } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import type { KubeConfig } from '@kubernetes/client-node';
import { beforeAll, expect, it } from 'vitest';
import { bucketFinalizer, startBucketController } from './bucket-controller.js';
import { type Bucket, bucketCrd, group, plural, version } from './bucket-crd.js';
import { ObjectStoreSimulator } from './object-store-simulator.js';

/** How long the test waits for the controller, each time. */
const waitMs = 30_000;

let kubeConfig: KubeConfig;
beforeAll(async () => {
  kubeConfig = testKubeConfig();
  await installCRDs(kubeConfig, [bucketCrd]);
});

it('creates the bucket, keeps the Bucket through an outage at deletion, and deletes the bucket before the Bucket goes', async () => {
  const namespace = await createTestNamespace(kubeConfig, 'buckets-');
  const client = createClient(kubeConfig);
  const buckets = { group, version, resource: plural };
  const store = new ObjectStoreSimulator();
  const stop = new AbortController();
  const done = startBucketController({ kubeConfig, store, namespace }, stop.signal);
  const get = () => client.get<Bucket>(buckets, 'photos', { namespace });

  await client.create(
    buckets,
    {
      apiVersion: `${group}/${version}`,
      kind: 'Bucket',
      metadata: { name: 'photos' },
      spec: { region: 'eu' },
    },
    { namespace },
  );
  await waitFor('the Bucket to be Ready', async () => (await get()).status?.phase === 'Ready', {
    timeoutMs: waitMs,
  });
  expect(store.buckets.get(`${namespace}/photos`)).toEqual({ region: 'eu' });
  expect((await get()).metadata.finalizers).toEqual([bucketFinalizer]);

  // The store is down when the Bucket is deleted: the finalizer holds the object.
  store.outage = new Error('object store unavailable');
  await client.delete(buckets, 'photos', { namespace });
  await waitFor(
    'the deletion',
    async () => (await get()).metadata.deletionTimestamp !== undefined,
    { timeoutMs: waitMs },
  );
  expect(store.buckets.size).toBe(1);
  expect((await get()).metadata.finalizers).toEqual([bucketFinalizer]);

  // The store recovers: the retried cleanup deletes the bucket, then the Bucket goes.
  store.outage = undefined;
  await waitFor(
    'the Bucket to be gone',
    () =>
      get().then(
        () => false,
        (e: unknown) => statusCode(e) === 404,
      ),
    { timeoutMs: waitMs },
  );
  expect(store.buckets.size).toBe(0);
  expect([store.creates, store.deletes]).toEqual([1, 1]);
  stop.abort();
  await done;
  client.close();
});
