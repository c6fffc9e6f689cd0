//! What one pass of the migration runner works with: the plan, its Migration and the adapters.

import type { Clock, Logger } from '@ctrlkit/core';
import type {
  Builder,
  Client,
  DestinationClient,
  Ensurer,
  GuestConversion,
  HookRunner,
  Inventory,
  Migrator,
} from '../adapter.js';
import type { Migration } from '../api/migration.js';
import type { Plan, VMStatus } from '../api/plan.js';
import type { ProviderType } from '../api/provider.js';
import type { MigrationSettings } from '../settings.js';

/** A VM phase change, reported for events and metrics. */
export interface PhaseTransition {
  vm: VMStatus;
  from: string;
  to: string;
}

/** Everything a pass needs. */
export interface MigrationRunnerContext {
  plan: Plan;
  /** The active Migration (its cancel and cutover lists); absent when only canceling. */
  migration?: Migration;
  inventory: Inventory;
  client: Client;
  builder: Builder;
  destination: DestinationClient;
  ensurer: Ensurer;
  /** Converts guests (virt-v2v); without one a VM that needs conversion fails at that step. */
  guestConversion?: GuestConversion;
  /** The source provider's type (vSphere's conversion step ends once virt-v2v copies). */
  sourceType?: ProviderType;
  migrator: Migrator;
  settings: MigrationSettings;
  clock: Clock;
  logger?: Logger;
  /** Every plan (from the cache) for the in-flight count across plans of the same source. */
  plans(): readonly Plan[];
  /** Runs hooks; without one a VM with a hook fails at the hook step. */
  hookRunner?: HookRunner;
  /** Called for every phase change of a VM. */
  onPhase?(transition: PhaseTransition): void;
}
