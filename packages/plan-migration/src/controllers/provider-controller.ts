//! The Provider controller: per-type inspection, the Ready condition, periodic re-inspection (Forklift's provider controller).

import { InvalidArgumentError } from '@ctrlkit/core';
import { splitMetaNamespaceKey } from '@ctrlkit/runtime/informers';
import type { ProviderInspector } from '../adapter.js';
import type { Provider } from '../api/provider.js';
import { Reason, ResourceConditionType } from '../condition-types.js';
import { Category, type NewCondition, READY, True } from '../conditions.js';
import { LONG_REQ, SLOW_REQ } from '../requeue.js';
import { ResourceController } from './internal/resource-controller.js';
import type { ResourceControllerOptions } from './resource-controller-options.js';

/** The host cluster (an `openshift` provider without `url`) is always reachable: no condition. */
export const hostInspector: ProviderInspector = (provider) =>
  provider.spec.url
    ? [
        {
          type: ResourceConditionType.UrlNotValid,
          status: True,
          reason: Reason.NotSupported,
          category: Category.Critical,
          message:
            'A remote `openshift` provider is not supported: leave `url` empty for the host cluster.',
        },
      ]
    : [];

/** The simulated source needs no connection: no condition. */
export const simulatedInspector: ProviderInspector = () => [];

/** The inspectors built in: `openshift` (the host cluster) and `simulated`. */
export const DEFAULT_PROVIDER_INSPECTORS: Readonly<Record<string, ProviderInspector>> =
  Object.freeze({ openshift: hostInspector, simulated: simulatedInspector });

/** Provider phases (Forklift's `Status.Phase`). */
export const ProviderPhase = {
  Staging: 'Staging',
  ValidationFailed: 'ValidationFailed',
  Ready: 'Ready',
} as const;

/** Options of {@link ProviderController}. */
export interface ProviderControllerOptions extends ResourceControllerOptions {
  /**
   * The inspector of each supported provider type; a type without one gets
   * `ProviderTypeNotSupported`. Default {@link DEFAULT_PROVIDER_INSPECTORS}; entries given
   * here are added to (or replace) the defaults.
   */
  inspectors?: Readonly<Record<string, ProviderInspector>>;
  /** How often a Ready provider is inspected again, in ms. Default {@link LONG_REQ} (30 s). */
  readyIntervalMs?: number;
  /** How often a provider that is not Ready is inspected again, in ms. Default {@link SLOW_REQ} (3 s). */
  notReadyIntervalMs?: number;
}

/**
 * The conditions of a provider from its inspection: `ProviderTypeNotSupported` (Critical,
 * NotSupported) for a type without an inspector, else what the inspector found, then
 * `Validated` and `Ready` when nothing blocks.
 */
export async function inspectProvider(
  provider: Provider,
  inspectors: Readonly<Record<string, ProviderInspector>>,
  signal: AbortSignal,
): Promise<NewCondition[]> {
  const inspector = Object.hasOwn(inspectors, provider.spec.type)
    ? inspectors[provider.spec.type]
    : undefined;
  if (inspector === undefined) {
    return [
      {
        type: ResourceConditionType.ProviderTypeNotSupported,
        status: True,
        reason: Reason.NotSupported,
        category: Category.Critical,
        message: `The \`type\` must be: [${Object.keys(inspectors).sort().join(' ')}]`,
      },
    ];
  }
  const found = await inspector(provider, signal);
  const blocked = found.some(
    (c) => c.status === True && (c.category === Category.Critical || c.category === Category.Error),
  );
  if (blocked) return found;
  const conditions: NewCondition[] = [
    ...found,
    {
      type: ResourceConditionType.Validated,
      status: True,
      reason: Reason.Completed,
      category: Category.Advisory,
      message: 'Validation has been completed.',
    },
  ];
  if (!found.some((c) => c.type === READY)) {
    conditions.push({
      type: READY,
      status: True,
      category: Category.Required,
      message: 'The provider is ready.',
    });
  }
  return conditions;
}

/**
 * Reconciles Providers: inspects each by type, writes its conditions, `phase` and
 * `observedGeneration`, and inspects it again after `readyIntervalMs` (Ready) or
 * `notReadyIntervalMs` (not Ready), so inventory or catalog changes show.
 */
export class ProviderController extends ResourceController {
  readonly #inspectors: Readonly<Record<string, ProviderInspector>>;
  readonly #readyInterval: number;
  readonly #notReadyInterval: number;

  constructor(options: ProviderControllerOptions) {
    super('Provider', 'provider', options);
    for (const [type, inspector] of Object.entries(options.inspectors ?? {})) {
      if (typeof inspector !== 'function')
        throw new InvalidArgumentError(`inspectors.${type}`, 'must be a function');
    }
    this.#readyInterval = interval('readyIntervalMs', options.readyIntervalMs, LONG_REQ);
    this.#notReadyInterval = interval('notReadyIntervalMs', options.notReadyIntervalMs, SLOW_REQ);
    this.#inspectors = { ...DEFAULT_PROVIDER_INSPECTORS, ...options.inspectors };
  }

  protected async reconcile(
    key: string,
    signal: AbortSignal,
  ): Promise<{ requeueAfterMs: number } | undefined> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const provider = await this.writer.reconcile<Provider>(namespace, name, async (p, cnd) => {
      cnd.setCondition(...(await inspectProvider(p, this.#inspectors, signal)));
      p.status = {
        ...p.status,
        phase: cnd.isReady()
          ? ProviderPhase.Ready
          : cnd.hasBlockerCondition()
            ? ProviderPhase.ValidationFailed
            : ProviderPhase.Staging,
      };
    });
    if (provider === undefined) return undefined;
    const ready = provider.status?.phase === ProviderPhase.Ready;
    this.log.debug({ provider: key, phase: provider.status?.phase }, 'provider inspected');
    return { requeueAfterMs: ready ? this.#readyInterval : this.#notReadyInterval };
  }
}

function interval(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new InvalidArgumentError(field, `must be a finite number of ms > 0, got ${value}`);
  return value;
}
