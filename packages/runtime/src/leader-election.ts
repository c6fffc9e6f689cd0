/**
 * `@ctrlkit/runtime/leader-election`: one active replica at a time, client-go's
 * `tools/leaderelection` on a `coordination.k8s.io/v1` Lease.
 *
 * - {@link LeaderElector} campaigns, renews and calls your {@link LeaderCallbacks}
 *   (`onStartedLeading(signal)`, `onStoppedLeading`, `onNewLeader`); options:
 *   {@link LeaderElectorOptions} (lease duration, renew deadline, retry period, in ms).
 * - {@link LeaseLock} is the Lease it competes for; any {@link ResourceLock} will do.
 * - {@link PrometheusLeaderElectionMetrics}: `leader_election_master_status`.
 * - Errors: {@link LeaderElectionError} (`LeaseLost`, …).
 *
 * A `Manager` (`@ctrlkit/runtime/manager`) runs one for you with its `leaderElection`
 * option; use these directly for a program without a manager.
 *
 * A first program:
 * ```ts
 * import { LeaderElector, LeaseLock } from '@ctrlkit/runtime/leader-election';
 *
 * const lock = new LeaseLock({ client, namespace: 'kube-system', name: 'my-controller', identity });
 * const elector = new LeaderElector({
 *   lock,
 *   callbacks: {
 *     onStartedLeading: (signal) => controller.run(signal), // stop the work when `signal` aborts
 *     onStoppedLeading: () => console.log('no longer leading'),
 *   },
 * });
 * await elector.run(shutdown.signal); // releases the Lease on shutdown
 * ```
 *
 * @packageDocumentation
 */

export {
  LeaderElectionError,
  type LeaderElectionErrorReason,
} from './leader-election/leader-election-error.js';
export { LeaderElector } from './leader-election/leader-elector.js';
export {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  JITTER_FACTOR,
  type LeaderCallbacks,
  type LeaderElectorOptions,
} from './leader-election/leader-elector-options.js';
export {
  LeaseLock,
  type LeaseLockEventRecorder,
  type LeaseLockOptions,
} from './leader-election/lease-lock.js';
export type {
  LeaderElectionRecord,
  ObservedRecord,
  ResourceLock,
} from './leader-election/resource-lock.js';
export { PrometheusLeaderElectionMetrics } from './metrics/leader-election-metrics.js';
