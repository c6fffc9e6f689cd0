//! The ResourceSlice controller's options, their defaults and their validation.

import { type Clock, InvalidArgumentError, type Logger, rejectRenamedOptions } from '@ctrlkit/core';
import type { ClientSource } from '@ctrlkit/runtime/client';
import type { InformerTracker } from '@ctrlkit/runtime/manager';
import type { TypedRateLimitingInterface } from '@ctrlkit/workqueue';
import type { KubeClient } from './adapter.js';
import type { DriverResources, Owner } from './driver-resources.js';
import type { DroppedFieldsError } from './dropped-fields-error.js';
import { isDnsSubdomain } from './validate-api-limits.js';

/**
 * How long slices this controller created or updated are trusted over the informer: 1 min.
 * Adds in that cache are not safe (a slice deleted by someone else would linger), so a
 * pool is synced again once its adds have expired.
 */
export const DEFAULT_MUTATION_CACHE_TTL_MS = 60_000;
/**
 * How long after an informer event a pool is synced: 30 s. Long enough for the informer
 * cache to be current (fewer redundant deletes), short enough that a human mistake is
 * fixed while the human waits.
 */
export const DEFAULT_SYNC_DELAY_MS = 30_000;
/** The name of the default queue (and of its metrics): `node_resource_slices`. */
export const QUEUE_NAME = 'node_resource_slices';
/** Called with each problem; `message` says what failed, as upstream's `msg`. */
export type ErrorHandler = (error: Error, message: string) => void;

/** Options of `startController`. */
export interface Options {
  /** The DRA driver's name, a DNS subdomain of at most 63 characters. Required. */
  driverName: string;
  /**
   * How to reach the cluster: the runtime's client (`manager.client`; a kubeconfig stands
   * for its default client), or a {@link KubeClient}. Required.
   */
  kubeClient: KubeClient | ClientSource;
  /**
   * The cluster-scoped object listed as controller owner of the slices. A Node also sets
   * `spec.nodeName` and restricts the watch to it; its UID is looked up when empty. Without
   * an owner there is no garbage collection: a driver must delete its slices on uninstall.
   * Default: none.
   */
  owner?: Owner;
  /** The initial desired resources. Default: none (`{ pools: {} }`). */
  resources?: DriverResources;
  /** The work queue of pool names. Default: a rate-limited queue named {@link QUEUE_NAME}. */
  queue?: TypedRateLimitingInterface<string>;
  /** TTL of the mutation cache, in ms (was `mutationCacheTTL`); 0 allowed. Default {@link DEFAULT_MUTATION_CACHE_TTL_MS}. */
  mutationCacheTTLMs?: number;
  /** Delay from an informer event to the pool's sync, in ms (was `syncDelay`); 0 allowed. Default {@link DEFAULT_SYNC_DELAY_MS}. */
  syncDelayMs?: number;
  /**
   * Called for every problem; the controller retries API errors after it returns. A
   * {@link DroppedFieldsError} means the apiserver dropped fields of disabled features.
   * Default: log with `logger.error`.
   */
  errorHandler?: ErrorHandler;
  /** Stops the controller like `stop()`; also aborts the wait for the informer. Default: none. */
  signal?: AbortSignal;
  /** The clock of delays and TTLs. Default: the real clock. */
  clock?: Clock;
  /** Where progress and (by default) errors go. Default: nowhere. */
  logger?: Logger;
  /**
   * Where the ResourceSlice informer's watch health is reported while the controller runs:
   * pass the `Manager`, and its `ctrlkit_informer_*` metrics and `/healthz` cover the
   * informer. Default: none (nothing outside the controller sees the informer's health).
   */
  informerTracker?: InformerTracker;
}

const optionKeys = new Set([
  'driverName',
  'kubeClient',
  'owner',
  'resources',
  'queue',
  'mutationCacheTTLMs',
  'syncDelayMs',
  'errorHandler',
  'signal',
  'clock',
  'logger',
  'informerTracker',
]);

/** Whether the owner is a Node (its slices are node-local). */
export function isNodeOwner(owner: Owner | undefined): owner is Owner {
  return owner !== undefined && owner.apiVersion === 'v1' && owner.kind === 'Node';
}

/** The duration option `field` in ms, validated, or `fallback`. */
export function duration(
  options: Options,
  field: 'mutationCacheTTLMs' | 'syncDelayMs',
  fallback: number,
): number {
  const value = options[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(
      field,
      `must be a finite number of ms >= 0, got ${String(value)}`,
    );
  }
  return value;
}

/** Throws an `InvalidArgumentError` naming the first invalid option. */
export function checkOptions(options: Options): void {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'must be an object');
  }
  rejectRenamedOptions(options, {
    mutationCacheTTL: 'mutationCacheTTLMs',
    syncDelay: 'syncDelayMs',
  });
  for (const key of Object.keys(options)) {
    if (!optionKeys.has(key)) throw new InvalidArgumentError(key, 'unknown option');
  }
  if (options.kubeClient === undefined || options.kubeClient === null) {
    throw new InvalidArgumentError('kubeClient', 'KubeClient is nil');
  }
  if (options.driverName === undefined || options.driverName === '') {
    throw new InvalidArgumentError('driverName', 'DRA driver name is empty');
  }
  if (
    typeof options.driverName !== 'string' ||
    options.driverName.length > 63 ||
    !isDnsSubdomain(options.driverName)
  ) {
    throw new InvalidArgumentError(
      'driverName',
      `must be a DNS subdomain of at most 63 characters, got ${JSON.stringify(options.driverName)}`,
    );
  }
  const { owner } = options;
  if (owner !== undefined) {
    for (const field of ['apiVersion', 'kind', 'name'] as const) {
      if (typeof owner?.[field] !== 'string' || owner[field] === '') {
        throw new InvalidArgumentError(`owner.${field}`, 'must be a non-empty string');
      }
    }
    if (owner.uid !== undefined && typeof owner.uid !== 'string') {
      throw new InvalidArgumentError('owner.uid', 'must be a string');
    }
  }
  if (options.errorHandler !== undefined && typeof options.errorHandler !== 'function') {
    throw new InvalidArgumentError('errorHandler', 'must be a function');
  }
  const tracker = options.informerTracker;
  if (tracker !== undefined && typeof tracker?.trackInformer !== 'function') {
    throw new InvalidArgumentError('informerTracker', 'must have a trackInformer() method');
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new InvalidArgumentError('signal', 'must be an AbortSignal');
  }
  const queue = options.queue as unknown as Record<string, unknown> | undefined;
  if (queue !== undefined) {
    for (const method of [
      'add',
      'addAfter',
      'addRateLimited',
      'forget',
      'get',
      'done',
      'shutDown',
    ]) {
      if (typeof queue?.[method] !== 'function') {
        throw new InvalidArgumentError(
          'queue',
          `must be a rate-limited queue (no ${method} method)`,
        );
      }
    }
  }
}

/** Whether `kubeClient` is a ready {@link KubeClient} (else the runtime's client or a kubeconfig). */
export function isKubeClient(value: KubeClient | ClientSource): value is KubeClient {
  return 'createResourceSlice' in value && 'client' in value;
}
