//! What a DRA driver implements: prepare and unprepare claims, handle errors, report health.

import type { Wire } from '@ctrlkit/runtime/client';
import type { ResourceV1ResourceClaim } from '@kubernetes/client-node';

/** A ResourceClaim as the apiserver sent it (times as strings). */
export type ResourceClaim = Wire<ResourceV1ResourceClaim>;

/**
 * One claim the kubelet asks to unprepare: only its UID, namespace and name, because the
 * claim may be deleted by then (upstream's `NamespacedObject`).
 */
export interface NamespacedObject {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
}

/** The CDI devices of one allocated device, for some requests of a claim (upstream's `Device`). */
export interface Device {
  /**
   * The requests (or `request/subrequest`s: the subrequest part is dropped on the wire) this
   * device serves; empty means all requests of the claim.
   */
  readonly requests: readonly string[];
  /** The pool of the device. Required. */
  readonly poolName: string;
  /** The device in that pool. Required. */
  readonly deviceName: string;
  /** CDI device IDs, `<vendor>/<class>=<name>` each (see `parseQualifiedName`); may be empty. */
  readonly cdiDeviceIds: readonly string[];
  /** The share of the device (a consumable-capacity share); omitted when none. */
  readonly shareId?: string;
}

/** The outcome of preparing one claim: its devices, or the error that stopped it. */
export type PrepareResult = { readonly devices: readonly Device[] } | { readonly error: Error };

/** The health of a device, as the kubelet's DRAResourceHealth API reports it. */
export type HealthStatus = 'Unknown' | 'Healthy' | 'Unhealthy';

/** One device's health in a {@link DeviceHealthReport} (upstream's `DeviceHealth`). */
export interface DeviceHealth {
  readonly poolName: string;
  readonly deviceName: string;
  /** Default `Unknown`. */
  readonly health?: HealthStatus;
  /** When the driver determined it, epoch ms; 0 or omitted: unknown. */
  readonly lastUpdatedMs?: number;
  /** After how long without a fresh report the kubelet says `Unknown`, in ms (whole seconds on the wire); 0: the kubelet's default. */
  readonly healthCheckTimeoutMs?: number;
  /** A human-readable detail. */
  readonly message?: string;
}

/** A snapshot of the health of some or all of the driver's devices. */
export interface DeviceHealthReport {
  readonly devices: readonly DeviceHealth[];
}

/**
 * What a DRA driver implements; the helper turns it into the kubelet's gRPC services
 * (upstream's `DRAPlugin`).
 *
 * Before `prepareResourceClaims` the helper has read every claim, checked its UID, that it
 * is allocated and that its allocation has devices of this driver; claims that fail a check
 * get their error in the response and are not passed on. Calls are serialized unless
 * `serialize: false`.
 */
export interface DRAPlugin {
  /**
   * Prepares the claims (all checked and of this driver) for use on the node. Must be
   * idempotent. Returns one result per claim UID; a claim missing from the result gets an
   * error in the response. A thrown error fails every claim of the call with its message.
   */
  prepareResourceClaims(
    claims: readonly ResourceClaim[],
  ): Promise<ReadonlyMap<string, PrepareResult>>;
  /**
   * Undoes `prepareResourceClaims`; the claims may be gone, and may not be prepared at all
   * (not an error). Returns, per claim UID, `null` for done or the error.
   */
  unprepareResourceClaims(
    claims: readonly NamespacedObject[],
  ): Promise<ReadonlyMap<string, Error | null>>;
  /**
   * Called with errors of background work: publishing slices through
   * `publishResources` (retried by the slice controller after it returns); `message` says
   * what failed. Such errors are recoverable (`recoverable` true, upstream's
   * `ErrRecoverable`): retrying or restarting the process will not fix dropped fields or an
   * invalid slice, so a driver decides whether to change what it publishes or exit.
   */
  handleError(error: Error, message: string, recoverable: boolean): void;
  /**
   * Optional: yields health reports until `signal` aborts (send one at once, then on every
   * change, at least once per health check timeout). Without it the health service is not
   * advertised, and a kubelet that calls it gets UNIMPLEMENTED.
   */
  watchHealthStatus?(signal: AbortSignal): AsyncIterable<DeviceHealthReport>;
}
