//! The Manager of ctrlkit-migration-controller: the Plan, Migration, Provider, map and Hook controllers on one informer factory.

import type { Logger } from '@ctrlkit/core';
import { PlanController } from '@ctrlkit/plan-migration';
import {
  HookController,
  MigrationController,
  NetworkMapController,
  ProviderController,
  StorageMapController,
} from '@ctrlkit/plan-migration/controllers';
import { loadKubeConfig, Manager } from '@ctrlkit/runtime';
import type { KubeConfigLike } from '@ctrlkit/runtime/client';
import packageJson from '../package.json' with { type: 'json' };
import type { Flags } from './flags.js';
import { sourceWiring } from './sources.js';

/** The program named in the `User-Agent` of the controller's API requests (and the field manager of its writes). */
export const PROGRAM_NAME = 'ctrlkit-migration-controller';

/** What {@link buildControllerManager} built, for tests and embedding. */
export interface ControllerManager {
  manager: Manager;
  planController: PlanController;
}

/**
 * Builds the Manager (leader election with `--leader-elect`, `/metrics`, probes) and adds
 * the PlanController and the Migration, Provider, NetworkMap, StorageMap and Hook
 * controllers, all leader-only and on the Manager's informer factory. Installs nothing:
 * the CRDs come from `deploy/`.
 */
export function buildControllerManager(
  flags: Flags,
  logger: Logger,
  kubeConfig: KubeConfigLike = loadKubeConfig({
    kubeconfig: flags.kubeconfig,
    insecureSkipTlsVerify: flags.insecureSkipTlsVerify,
    logger,
  }),
): ControllerManager {
  const manager = new Manager({
    kubeConfig,
    program: { name: PROGRAM_NAME, version: packageJson.version },
    logger,
    metricsBindAddress: flags.metricsBindAddress,
    healthProbeBindAddress: flags.healthProbeBindAddress,
    ...(flags.leaderElect && {
      leaderElection: {
        leaseName: flags.leaderElectionId,
        ...(flags.leaderElectionNamespace && { leaseNamespace: flags.leaderElectionNamespace }),
      },
    }),
  });
  const wiring = sourceWiring({
    ovaCatalogPath: flags.ovaCatalogPath,
    destination: flags.destination,
    virtV2vImage: flags.virtV2vImage,
    client: manager.client,
  });
  // Every controller's requests, the informers' included, go through the manager's one client.
  const shared = {
    client: manager.client,
    informerFactory: manager.informerFactory,
    apiGroup: flags.apiGroup,
    logger,
  };
  const planController = new PlanController({
    ...shared,
    ...wiring.plan,
    settings: { maxInFlight: flags.maxVmInflight },
    eventRecorder: manager.getEventRecorder('plan-controller'),
    registry: manager.registry,
  });
  manager.add({ name: 'plan', start: (signal) => planController.run(signal) });
  for (const controller of [
    new MigrationController({
      ...shared,
      inventory: (provider) => wiring.sources(provider)?.inventory,
    }),
    new ProviderController({ ...shared, inspectors: wiring.inspectors }),
    new NetworkMapController(shared),
    new StorageMapController(shared),
    new HookController(shared),
  ]) {
    manager.add(controller.runtimeController);
  }
  return { manager, planController };
}
