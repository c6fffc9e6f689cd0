//! @ctrlkit/runtime: informers, the controller loop, leader election, events and controller references.

// Each area adds its exports in its own section below (explicit names, no `export *`).

// --- logger
export { type Logger, noopLogger } from './logger.js';

// --- informers

// --- controller

// --- leader election

// --- events

// --- controller references
