/**
 * `@ctrlkit/runtime`: the machinery of client-go's `tools/cache` and controller-runtime for
 * TypeScript. The root holds what a first controller needs; each concept has its subpath:
 *
 * - `@ctrlkit/runtime/manager`: {@link Manager}, a controller process (informers, the one
 *   client, leader election, `/metrics`, probes, graceful stop), {@link setupSignalHandler}.
 * - `@ctrlkit/runtime/controller`: {@link Controller} and the {@link Reconciler} it calls,
 *   requests ({@link requestReconciler}), event handlers, predicates, owner and controller
 *   references, {@link TerminalError}.
 * - `@ctrlkit/runtime/informers`: {@link SharedInformerFactory}, shared informers, indexers,
 *   listers, the reflector, keys and tombstones.
 * - `@ctrlkit/runtime/client`: {@link loadKubeConfig}, the one `Client` (`manager.client`
 *   or `createClient`: one pool, rate limited, named, counted), and the writes:
 *   {@link apply}, {@link applyStatus}, {@link patchStatus}, {@link retryOnConflict},
 *   finalizers.
 * - `@ctrlkit/runtime/leader-election`: `LeaderElector` on a Lease, for a program without a
 *   manager.
 * - `@ctrlkit/runtime/events`: `EventRecorder`, Kubernetes Events with repeats counted.
 * - `@ctrlkit/runtime/crd`: CustomResourceDefinitions from TypeBox schemas, and their
 *   committed manifests.
 * - `@ctrlkit/runtime/cli`: a program's flag table, `--help` and `runMain`.
 * - `@ctrlkit/runtime/testing`: `FakeListWatch` and `FakeRecorder`.
 *
 * The clock, logger, `InvalidArgumentError`, {@link isNotFound} and {@link isConflict} a
 * first program uses are `@ctrlkit/core`'s, re-exported here; the rest of core (the error
 * base, the other API-status helpers) is imported from `@ctrlkit/core`.
 *
 * A first program:
 * ```ts
 * import { Controller, loadKubeConfig, Manager, setupSignalHandler } from '@ctrlkit/runtime';
 * import type { V1ConfigMap } from '@kubernetes/client-node';
 *
 * const manager = new Manager({ kubeConfig: loadKubeConfig(), program: { name: 'stamper', version: '1.0.0' } });
 * const { client } = manager;
 * const configMaps = manager.informerFactory.forResource<V1ConfigMap>('v1/configmaps');
 * manager.add(
 *   new Controller({
 *     name: 'stamper',
 *     reconcile: async (key) => {
 *       const cm = configMaps.indexer.getByKey(key);
 *       if (cm === undefined || cm.metadata?.labels?.stamped === 'true') return;
 *       await client.patch('configmaps', cm.metadata!.name!,
 *         [{ op: 'add', path: '/metadata/labels', value: { stamped: 'true' } }],
 *         { namespace: cm.metadata!.namespace!, type: 'json' });
 *     },
 *   }).watch(configMaps),
 * );
 * await manager.start(setupSignalHandler());
 * ```
 *
 * @packageDocumentation
 */

export { loadKubeConfig } from '@ctrlkit/client';
export {
  type Clock,
  InvalidArgumentError,
  isConflict,
  isNotFound,
  type Logger,
  noopLogger,
  realClock,
  type Timer,
} from '@ctrlkit/core';
export { type ApplyOptions, apply, applyStatus } from './apply/apply.js';
export { type PatchStatusOptions, patchStatus } from './apply/patch-status.js';
export { Controller } from './controller/controller.js';
export type { ControllerOptions } from './controller/controller-options.js';
export type { ReconcileResult, Reconciler } from './controller/reconciler.js';
export { TerminalError } from './controller/terminal-error.js';
export { SharedInformerFactory } from './informers/shared-informer-factory.js';
export { Manager } from './manager/manager.js';
export type { ManagerOptions } from './manager/manager-options.js';
export { setupSignalHandler } from './manager/signals.js';
export { type Request, requestReconciler } from './reconcile/request.js';
export { DEFAULT_RETRY, retryOnConflict } from './retry/retry-on-conflict.js';
