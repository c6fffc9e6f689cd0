//! The names a ring writes on the cluster: its Lease label, and each object's shard and drain labels.

import { InvalidArgumentError } from '@ctrlkit/core';

/** The label every shard Lease of a ring carries: `ctrlkit.io/ring=<ring>`. */
export const RING_LABEL = 'ctrlkit.io/ring';
/**
 * The annotation of a shard Lease naming the resources its replica shards, comma-separated
 * (`v1/configmaps`): rings of one name must agree on them.
 */
export const RING_RESOURCES_ANNOTATION = 'ctrlkit.io/ring-resources';
/** The value of a drain label: the sharder asks the object's shard to let go of it. */
export const DRAIN_VALUE = 'true';

const ringName = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Throws `InvalidArgumentError` naming `field` unless `ring` is a DNS-1123 label (it becomes part of label keys). */
export function checkRingName(ring: unknown, field = 'ring'): asserts ring is string {
  if (typeof ring !== 'string' || !ringName.test(ring)) {
    throw new InvalidArgumentError(
      field,
      `expected a DNS-1123 label (lower-case alphanumerics and '-', at most 63 characters), got ${JSON.stringify(ring)}`,
    );
  }
}

/** The label naming an object's shard in `ring`: `shard.ctrlkit.io/<ring>=<shard>`. */
export function shardLabel(ring: string): string {
  return `shard.ctrlkit.io/${ring}`;
}

/** The label by which the sharder asks a shard to let go of an object: `drain.ctrlkit.io/<ring>=true`. */
export function drainLabel(ring: string): string {
  return `drain.ctrlkit.io/${ring}`;
}

/** `path` as a JSON Pointer (RFC 6901) segment: `~` → `~0`, `/` → `~1`. */
export function jsonPointerSegment(path: string): string {
  return path.replaceAll('~', '~0').replaceAll('/', '~1');
}
