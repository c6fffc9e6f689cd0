//! The Manager of ctrlkit-migration-controller: the Plan, Migration, Provider, map and Hook controllers on one informer factory.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError, type Logger } from '@ctrlkit/core';
import { PLURALS, PlanController, VERSION } from '@ctrlkit/plan-migration';
import {
  HookController,
  MigrationController,
  NetworkMapController,
  ProviderController,
  StorageMapController,
} from '@ctrlkit/plan-migration/controllers';
import { loadKubeConfig, Manager } from '@ctrlkit/runtime';
import { type KubeConfigLike, SERVICE_ACCOUNT_DIR } from '@ctrlkit/runtime/client';
import { type RingOptions, Shard, Sharder } from '@ctrlkit/runtime/sharding';
import packageJson from '../package.json' with { type: 'json' };
import type { Flags } from './flags.js';
import { sourceWiring } from './sources.js';

/** The program named in the `User-Agent` of the controller's API requests (and the field manager of its writes). */
export const PROGRAM_NAME = 'ctrlkit-migration-controller';

/** What {@link buildControllerManager} built, for tests and embedding. */
export interface ControllerManager {
  manager: Manager;
  planController: PlanController;
  /** This replica's shard, with `--shards-ring`. */
  shard?: Shard;
}

/**
 * Builds the Manager (leader election with `--leader-elect`, `/metrics`, probes) and adds
 * the PlanController and the Migration, Provider, NetworkMap, StorageMap and Hook
 * controllers, all leader-only and on the Manager's informer factory. With `--shards-ring`,
 * the PlanController runs sharded instead (every replica: a `Shard` and a `Sharder` candidate
 * of that ring, Plans shared out, Migrations following their Plan). Installs nothing: the
 * CRDs come from `deploy/`.
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
    contentType: flags.kubeApiContentType,
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
  const shard = flags.shardsRing === undefined ? undefined : planShard(flags, manager, logger);
  const planController = new PlanController({
    ...shared,
    ...wiring.plan,
    settings: { maxInFlight: flags.maxVmInflight },
    eventRecorder: manager.getEventRecorder('plan-controller'),
    registry: manager.registry,
    ...(shard && { shard: shard.shard }),
  });
  if (shard === undefined) {
    manager.add({ name: 'plan', start: (signal) => planController.run(signal) });
  } else {
    manager.add(shard.shard).add(shard.sharder);
  }
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
  return { manager, planController, ...(shard && { shard: shard.shard }) };
}

/**
 * This replica's `Shard` and `Sharder` candidate of the `--shards-ring` ring: Plans shared
 * out, their Migrations following them (the Plan is their controller owner); Leases in the
 * leader election's namespace.
 */
function planShard(
  flags: Flags,
  manager: Manager,
  logger: Logger,
): { shard: Shard; sharder: Sharder } {
  const leaseNamespace = flags.leaderElectionNamespace ?? podNamespace();
  if (leaseNamespace === undefined) {
    throw new InvalidArgumentError(
      '--leader-election-namespace',
      'required with --shards-ring when not running in a pod (no service account namespace file)',
    );
  }
  const resource = (kind: 'Plan' | 'Migration') => `${flags.apiGroup}/${VERSION}/${PLURALS[kind]}`;
  const ring: RingOptions = {
    ring: flags.shardsRing ?? '',
    resources: [resource('Plan')],
    controlledResources: [resource('Migration')],
    leaseNamespace,
  };
  return {
    shard: new Shard({ ...ring, manager, logger }),
    sharder: new Sharder({ ...ring, manager, logger }),
  };
}

/** The namespace of the pod this process runs in, from its service account mount. */
function podNamespace(): string | undefined {
  try {
    return readFileSync(join(SERVICE_ACCOUNT_DIR, 'namespace'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
