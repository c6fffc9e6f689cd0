//! @ctrlkit/runtime: informers, the controller loop, leader election, events and controller references.

// Each area adds its exports in its own section below (explicit names, no `export *`).

// --- logger
export { type Logger, noopLogger } from './logger.js';

// --- informers

// --- controller
export { CacheSyncTimeoutError } from './controller/cache-sync-timeout-error.js';
export {
  Controller,
  type ControllerOptions,
  defaultCacheSyncTimeout,
  defaultMaxConcurrentReconciles,
  type ReconcileResult,
  type Reconciler,
  type WatchOptions,
} from './controller/controller.js';
export type {
  EventHandlers,
  EventSource,
  ObjectWithMetadata,
  TombstoneLike,
} from './controller/event-source.js';
export { enqueueRequestForOwner, type OwnerMatch, objectKey } from './controller/keys.js';
export { TerminalError } from './controller/terminal-error.js';

// --- leader election

// --- events

// --- controller references
