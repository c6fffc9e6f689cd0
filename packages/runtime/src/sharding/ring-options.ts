//! What a shard and a sharder of one ring share: the ring's name, its resources, where its Leases live, their timing.

import {
  formatGroupVersionResource,
  type ResourceLike,
  toGroupVersionResource,
} from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
} from '../leader-election/leader-elector-options.js';
import { checkRingName } from './ring-labels.js';

/** The options every part of a ring is given alike. */
export interface RingOptions {
  /** The ring's name, a DNS-1123 label: it is part of the label keys (`shard.ctrlkit.io/<ring>`). Required. */
  ring: string;
  /**
   * The resources whose objects the ring shares out and reconciles (`'v1/configmaps'`,
   * `'example.com/v1/widgets'`): each object gets a shard label, and moves with the drain
   * handshake. Every replica and the sharder of a ring must name the same ones. Required, at least one.
   */
  resources: readonly ResourceLike[];
  /**
   * Resources whose objects only follow their controller owner (e.g. the ConfigMaps a
   * Widget creates): they are labelled with their owner's shard so a shard's cache holds
   * them, and are relabelled without a handshake (only the owner is reconciled). Default: none.
   */
  controlledResources?: readonly ResourceLike[];
  /** The namespace of the ring's Leases (each shard's, and the sharder's). Required. */
  leaseNamespace: string;
  /** Default `DEFAULT_LEASE_DURATION_MS` (15 s): how long a shard that stops renewing stays in the ring. */
  leaseDurationMs?: number;
  /** Default `DEFAULT_RENEW_DEADLINE_MS` (10 s). */
  renewDeadlineMs?: number;
  /** Default `DEFAULT_RETRY_PERIOD_MS` (2 s). */
  retryPeriodMs?: number;
}

/** A ring's options, checked, with defaults and resources normalised (`v1/configmaps`). */
export interface ResolvedRing {
  ring: string;
  resources: string[];
  controlledResources: string[];
  leaseNamespace: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** Checks the ring options of `options`, naming the field at fault. */
export function resolveRing(options: RingOptions): ResolvedRing {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'expected an options object');
  }
  checkRingName(options.ring);
  if (!Array.isArray(options.resources) || options.resources.length === 0) {
    throw new InvalidArgumentError('resources', 'expected at least one resource');
  }
  const normalise = (list: readonly ResourceLike[], field: string) =>
    list.map((r, i) => formatGroupVersionResource(toGroupVersionResource(r, `${field}[${i}]`)));
  const resources = normalise(options.resources, 'resources');
  const controlled = options.controlledResources ?? [];
  if (!Array.isArray(controlled)) {
    throw new InvalidArgumentError('controlledResources', 'expected an array of resources');
  }
  const controlledResources = normalise(controlled, 'controlledResources');
  if (typeof options.leaseNamespace !== 'string' || options.leaseNamespace === '') {
    throw new InvalidArgumentError('leaseNamespace', 'expected a non-empty string');
  }
  return {
    ring: options.ring,
    resources,
    controlledResources,
    leaseNamespace: options.leaseNamespace,
    leaseDurationMs: options.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS,
    renewDeadlineMs: options.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS,
    retryPeriodMs: options.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS,
  };
}

/** The `ctrlkit.io/ring-resources` annotation of a ring: its resources, then `>` and its controlled ones. */
export function ringResourcesAnnotation(ring: ResolvedRing): string {
  const main = [...ring.resources].sort().join(',');
  const controlled = [...ring.controlledResources].sort().join(',');
  return controlled === '' ? main : `${main}>${controlled}`;
}
