/**
 * The finalizer example: a Bucket controller that deletes its external bucket (in an
 * {@link ObjectStoreSimulator}) before the Bucket goes, on `@ctrlkit/runtime/client`'s
 * `finalizer`.
 *
 * @packageDocumentation
 */

export {
  type BucketControllerOptions,
  bucketFinalizer,
  startBucketController,
} from './bucket-controller.js';
export { type Bucket, bucketCrd, bucketSchema, group, plural, version } from './bucket-crd.js';
export { ObjectStoreSimulator } from './object-store-simulator.js';
