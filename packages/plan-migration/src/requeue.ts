//! Requeue delays of the plan controller (Forklift's NoReQ, PollReQ, FastReQ, SlowReQ), in ms.

/** Do not requeue: the execution ended, or was rejected. */
export const NO_REQ = 0;
/** Poll a running execution: 3 s. */
export const POLL_REQ = 3_000;
/** More migrations are pending: 500 ms. */
export const FAST_REQ = 500;
/** Blockers, postponed references, errors: 3 s. */
export const SLOW_REQ = 3_000;
/** Re-check a Ready provider (re-test connections, re-read catalogs): 30 s. */
export const LONG_REQ = 30_000;
