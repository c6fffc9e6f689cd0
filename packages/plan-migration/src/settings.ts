//! Migration settings and their defaults (Forklift's pkg/settings, MAX_VM_INFLIGHT and friends).

import { InvalidArgumentError } from '@ctrlkit/core';

/** VMs migrating at once per source provider: 20, as `MAX_VM_INFLIGHT`. */
export const MAX_VM_INFLIGHT = 20;
/** Hook job failures before the hook step fails: 3, as `HOOK_RETRY`. */
export const DEFAULT_HOOK_RETRY = 3;
/** Time between warm precopies: 60 minutes, as `PRECOPY_INTERVAL`. */
export const DEFAULT_PRECOPY_INTERVAL_MS = 60 * 60_000;
/** How long a blocker may stand before it fails an executing migration: 5 minutes. */
export const DEFAULT_BLOCKER_GRACE_PERIOD_MS = 5 * 60_000;
/** Wait for Windows guests to reboot after conversion: on, as `FEATURE_WINDOWS_WAIT_FOR_REBOOT`. */
export const DEFAULT_WINDOWS_WAIT_FOR_REBOOT = true;
/** Wait for the final vSphere snapshot's consolidation: on, as `WAIT_FOR_FINAL_SNAPSHOT_CONSOLIDATION`. */
export const DEFAULT_WAIT_FOR_FINAL_SNAPSHOT_CONSOLIDATION = true;

/** Tunables of a plan's execution; every field has a `DEFAULT_*`. */
export interface MigrationSettings {
  /** VMs in flight per source provider. Default {@link MAX_VM_INFLIGHT}. */
  maxInFlight: number;
  /** Hook retries. Default {@link DEFAULT_HOOK_RETRY}. */
  hookRetry: number;
  /** Warm precopy interval, ms. Default {@link DEFAULT_PRECOPY_INTERVAL_MS}. */
  precopyIntervalMs: number;
  /** Grace period of a blocker while executing, ms. Default {@link DEFAULT_BLOCKER_GRACE_PERIOD_MS}. */
  blockerGracePeriodMs: number;
  /** Default {@link DEFAULT_WINDOWS_WAIT_FOR_REBOOT}. */
  windowsWaitForReboot: boolean;
  /** Default {@link DEFAULT_WAIT_FOR_FINAL_SNAPSHOT_CONSOLIDATION}. */
  waitForFinalSnapshotConsolidation: boolean;
}

/** Fills defaults and rejects invalid values with an error naming the field. */
export function migrationSettings(partial: Partial<MigrationSettings> = {}): MigrationSettings {
  const s: MigrationSettings = {
    maxInFlight: partial.maxInFlight ?? MAX_VM_INFLIGHT,
    hookRetry: partial.hookRetry ?? DEFAULT_HOOK_RETRY,
    precopyIntervalMs: partial.precopyIntervalMs ?? DEFAULT_PRECOPY_INTERVAL_MS,
    blockerGracePeriodMs: partial.blockerGracePeriodMs ?? DEFAULT_BLOCKER_GRACE_PERIOD_MS,
    windowsWaitForReboot: partial.windowsWaitForReboot ?? DEFAULT_WINDOWS_WAIT_FOR_REBOOT,
    waitForFinalSnapshotConsolidation:
      partial.waitForFinalSnapshotConsolidation ?? DEFAULT_WAIT_FOR_FINAL_SNAPSHOT_CONSOLIDATION,
  };
  for (const key of ['maxInFlight', 'hookRetry'] as const) {
    if (!Number.isInteger(s[key]) || s[key] < 1) {
      throw new InvalidArgumentError(`settings.${key}`, `must be an integer >= 1, got ${s[key]}`);
    }
  }
  for (const key of ['precopyIntervalMs', 'blockerGracePeriodMs'] as const) {
    if (!Number.isFinite(s[key]) || s[key] < 0) {
      throw new InvalidArgumentError(
        `settings.${key}`,
        `must be a finite number >= 0, got ${s[key]}`,
      );
    }
  }
  return s;
}
