//! Source adapters, provider inspectors, the destination and the hook runner: the one place a provider type or a destination is wired in.

import { type Clock, InvalidArgumentError, realClock } from '@ctrlkit/core';
import type { ProviderInspector } from '@ctrlkit/plan-migration';
import {
  DEFAULT_SIMULATED_COPY_RATE_MIB_PER_S,
  type PlanControllerOptions,
  SimulatedSource,
  type SimulatedSourceOptions,
  type SourceAdapter,
} from '@ctrlkit/plan-migration';
import {
  Category,
  type Provider,
  Reason,
  ResourceConditionType,
  True,
} from '@ctrlkit/plan-migration/api';
import { JobHookRunner, KubeVirtDestination } from '@ctrlkit/plan-migration/kubevirt';
import { inspectOvaProvider, OvaProviderCatalogs } from '@ctrlkit/plan-migration/ova';
import type { Client } from '@ctrlkit/runtime/client';
import type { Flags } from './flags.js';

/** Settings of a `simulated` Provider (`spec.settings`), with their defaults. */
export const SIMULATED_SETTINGS = {
  /** How many VMs the inventory has (`vm-0` … `vm-(n-1)`), each with one NIC on `net-1`. */
  vms: 4,
  /** Disks per VM (`disk-0` …), on datastore `ds-1`. */
  disks: 1,
  /** Capacity of each disk, MiB. */
  diskMiB: 1024,
  /** MiB per second each disk copies at. */
  copyRateMiBPerSecond: DEFAULT_SIMULATED_COPY_RATE_MIB_PER_S,
} as const;

/** Options of {@link sourceWiring}. */
export interface SourceWiringOptions {
  /**
   * Where the `ova` Providers' NFS shares are mounted (`--ova-catalog-path`), one folder per
   * share: a Provider with `spec.url` `server:/path` reads `<ovaCatalogPath>/<server>/<path>`.
   */
  ovaCatalogPath: string;
  /** Where VMs go (`--destination`). */
  destination: Flags['destination'];
  /** The conversion pods' image (`--virt-v2v-image`). Default: the KubeVirt destination's. */
  virtV2vImage?: string;
  /** The runtime's one client (`manager.client`), for the hook runner. */
  client: Client;
  clock?: Clock;
}

/** What the controllers get from the wiring. */
export interface SourceWiring {
  /** The adapters of a source provider, undefined when its type is not wired. */
  sources: (provider: Provider) => SourceAdapter | undefined;
  /** Options of the PlanController that come from the wiring: `sources`, the destination and the hook runner. */
  plan: Pick<PlanControllerOptions, 'sources'> & Partial<PlanControllerOptions>;
  /** The ProviderController's inspectors, by provider type (besides the host cluster's). */
  inspectors: Record<string, ProviderInspector>;
}

/**
 * The simulated source of a `simulated` Provider, from its `spec.settings`
 * ({@link SIMULATED_SETTINGS}). Throws InvalidArgumentError naming a bad setting.
 */
export function simulatedSourceOptions(provider: Provider, clock: Clock): SimulatedSourceOptions {
  const settings = provider.spec.settings ?? {};
  const known = Object.keys(SIMULATED_SETTINGS);
  for (const key of Object.keys(settings)) {
    if (!known.includes(key))
      throw new InvalidArgumentError(`settings.${key}`, `unknown (known: ${known.join(', ')})`);
  }
  const number = (key: keyof typeof SIMULATED_SETTINGS, min: number): number => {
    const text = settings[key];
    if (text === undefined) return SIMULATED_SETTINGS[key];
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < min)
      throw new InvalidArgumentError(
        `settings.${key}`,
        `must be an integer >= ${min}, got "${text}"`,
      );
    return n;
  };
  const vms = number('vms', 0);
  const disks = number('disks', 1);
  const diskMiB = number('diskMiB', 1);
  return {
    clock,
    copyRateMiBPerSecond: number('copyRateMiBPerSecond', 1),
    vms: Array.from({ length: vms }, (_, i) => ({
      id: `vm-${i}`,
      name: `vm-${i}`,
      powerState: 'On' as const,
      networks: ['net-1'],
      disks: Array.from({ length: disks }, (_, d) => ({
        id: `disk-${d}`,
        capacityMiB: diskMiB,
        datastore: 'ds-1',
      })),
    })),
  };
}

/**
 * Source adapters by provider type: `ova` → an `OvaSource` on the Provider's own catalog, the
 * NFS share its `spec.url` names, mounted at `<ovaCatalogPath>/<server>/<path>` (one
 * inventory per share, shared with the Provider check; a URL that is not `server:/path` has
 * no adapter, and its Provider gets `UrlNotValid`);
 * `simulated` → a {@link SimulatedSource} per Provider (kept while its settings stay the same,
 * so copies in progress go on). Other types have no adapter (their plans get
 * `SourceProviderNotValid`), and their Providers get `ProviderTypeNotSupported`. The
 * destination is a {@link KubeVirtDestination} (or, with `configmap`, the PlanController's
 * default `ConfigMapDestination`); hooks run as Jobs ({@link JobHookRunner}).
 */
export function sourceWiring(options: SourceWiringOptions): SourceWiring {
  const clock = options.clock ?? realClock;
  const simulated = new Map<string, { settings: string; source: SimulatedSource }>();
  const simulatedSource = (provider: Provider): SimulatedSource => {
    const key = provider.metadata.uid ?? `${provider.metadata.namespace}/${provider.metadata.name}`;
    const settings = JSON.stringify(provider.spec.settings ?? {});
    const cached = simulated.get(key);
    if (cached?.settings === settings) return cached.source;
    const source = new SimulatedSource(simulatedSourceOptions(provider, clock));
    simulated.set(key, { settings, source });
    return source;
  };
  const ovaCatalogs = new OvaProviderCatalogs({ root: options.ovaCatalogPath, clock });
  const sources = (provider: Provider): SourceAdapter | undefined => {
    if (provider.spec.type === 'ova') return ovaCatalogs.forProvider(provider)?.source;
    if (provider.spec.type !== 'simulated') return undefined;
    let source: SimulatedSource;
    try {
      source = simulatedSource(provider);
    } catch (error) {
      // The Provider carries SettingsNotValid; its plans wait for it to be Ready.
      if (InvalidArgumentError.isInstance(error)) return undefined;
      throw error;
    }
    return {
      inventory: source,
      client: source,
      builder: source,
      validator: (plan, maps) => source.validator(plan, maps),
    };
  };
  return {
    sources,
    plan: {
      sources,
      hookRunner: new JobHookRunner({ client: options.client }),
      ...(options.destination === 'kubevirt' && {
        destination: (context) =>
          new KubeVirtDestination({
            ...context,
            ...(options.virtV2vImage !== undefined && { virtV2vImage: options.virtV2vImage }),
          }),
      }),
    },
    inspectors: {
      ova: async (provider) => {
        const catalog = ovaCatalogs.forProvider(provider);
        if (catalog === undefined) {
          return [
            {
              type: ResourceConditionType.UrlNotValid,
              status: True,
              reason: Reason.NotValid,
              category: Category.Critical,
              message: `The OVA provider's URL must name an NFS share, server:/path; got "${provider.spec.url ?? ''}".`,
            },
          ];
        }
        return (await inspectOvaProvider(provider, { inventory: catalog.inventory })).conditions;
      },
      simulated: (provider) => {
        try {
          simulatedSource(provider);
          return [];
        } catch (error) {
          if (!InvalidArgumentError.isInstance(error)) throw error;
          return [
            {
              type: ResourceConditionType.SettingsNotValid,
              status: True,
              reason: Reason.NotValid,
              category: Category.Critical,
              message: error.message,
            },
          ];
        }
      },
    },
  };
}
