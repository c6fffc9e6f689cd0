/**
 * `@ctrlkit/runtime/manager`: a controller process, as controller-runtime's manager runs it.
 *
 * - {@link Manager} owns the informers (`informerFactory`), the one client
 *   (`client`: rate limited, named by your program, counted), event recorders
 *   (`getEventRecorder`), the controllers and other {@link Runnable}s, leader election on a
 *   Lease ({@link ManagerLeaderElectionOptions}), `/metrics`, `/healthz` and `/readyz`
 *   ({@link HealthCheck}; `trackInformer` adds an informer made elsewhere to the informer
 *   health, {@link InformerTracker}), and a graceful stop. Options: {@link ManagerOptions}; errors:
 *   {@link ManagerError}.
 * - {@link setupSignalHandler}: an `AbortSignal` that aborts on the first SIGTERM or SIGINT.
 *
 * The pieces it runs have their own subpaths: `@ctrlkit/runtime/controller`,
 * `@ctrlkit/runtime/informers`, `@ctrlkit/runtime/client`, `@ctrlkit/runtime/events`,
 * `@ctrlkit/runtime/leader-election`.
 *
 * A first program:
 * ```ts
 * import { Manager, setupSignalHandler } from '@ctrlkit/runtime/manager';
 * import { loadKubeConfig } from '@ctrlkit/runtime/client';
 *
 * const manager = new Manager({
 *   kubeConfig: loadKubeConfig({ kubeconfig: flags.kubeconfig }),
 *   program: { name: 'my-controller', version: '1.0.0' },
 *   leaderElection: { leaseName: 'my-controller', leaseNamespace: 'default' },
 * });
 * manager.add(controller);
 * await manager.start(setupSignalHandler()); // resolves after a graceful stop
 * ```
 *
 * @packageDocumentation
 */

export type { HealthCheck } from './manager/health-probes.js';
export type { InformerTracker, TrackedInformer } from './manager/informer-tracker.js';
export { Manager } from './manager/manager.js';
export { ManagerError, type ManagerErrorReason } from './manager/manager-error.js';
export {
  DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MS,
  DEFAULT_HEALTH_PROBE_BIND_ADDRESS,
  DEFAULT_INFORMER_UNWATCHED_TIMEOUT_MS,
  DEFAULT_LEADER_ELECTION_HEALTHZ_TOLERANCE_MS,
  DEFAULT_METRICS_BIND_ADDRESS,
  type ManagerLeaderElectionOptions,
  type ManagerOptions,
} from './manager/manager-options.js';
export type { Runnable } from './manager/runnable-group.js';
export { type SignalTarget, setupSignalHandler } from './manager/signals.js';
