//! The Bucket controller: a bucket in the object store per Bucket object, deleted before the object goes.

import {
  Controller,
  patchStatus,
  requestReconciler,
  SharedInformerFactory,
} from '@ctrlkit/runtime';
import { finalizer } from '@ctrlkit/runtime/client';
import type { KubeConfig } from '@kubernetes/client-node';
import { type Bucket, group, plural, version } from './bucket-crd.js';
import type { ObjectStoreSimulator } from './object-store-simulator.js';

/** The finalizer this controller owns. */
export const bucketFinalizer = 'examples.ctrlkit.dev/delete-bucket';

/** Options of {@link startBucketController}. */
export interface BucketControllerOptions {
  kubeConfig: KubeConfig;
  store: ObjectStoreSimulator;
  /** Watch only this namespace. Default: all. */
  namespace?: string;
}

/** Runs the controller until `signal` fires; resolves when it has stopped. */
export function startBucketController(
  options: BucketControllerOptions,
  signal: AbortSignal,
): Promise<void> {
  const { kubeConfig, store } = options;
  const factory = new SharedInformerFactory(kubeConfig, {
    ...(options.namespace !== undefined && { namespace: options.namespace }),
  });
  const buckets = factory.forResource<Bucket>({ group, version, resource: plural });
  const lister = factory.lister<Bucket>({ group, version, resource: plural });

  const controller = new Controller({
    name: 'bucket',
    reconcile: requestReconciler(async ({ namespace, name }) => {
      const cached = lister.namespace(namespace).get(name);
      if (cached === undefined) return;
      const bucket = { ...cached, apiVersion: `${group}/${version}`, kind: 'Bucket' };
      return finalizer(kubeConfig, bucketFinalizer, bucket, async (event) => {
        const key = `${namespace}/${name}`;
        if (event.type === 'Cleanup') {
          await store.deleteBucket(key); // idempotent: may run again after a failure
          return;
        }
        await store.ensureBucket(key, event.object.spec.region);
        if (event.object.status?.phase !== 'Ready') {
          await patchStatus(kubeConfig, event.object, { phase: 'Ready' });
        }
      });
    }),
  }).watch(buckets);
  factory.start(signal);
  return controller.run(signal);
}
