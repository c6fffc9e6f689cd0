//! Validation of a map's source and destination providers (Forklift's validation.ProviderPair).

import type { Provider } from '../api/provider.js';
import { Reason, ResourceConditionType } from '../condition-types.js';
import { Category, type NewCondition, True } from '../conditions.js';
import { hasReady } from '../validation/ready.js';

/** A map's `spec.provider`. */
export interface ProviderPair {
  source?: { namespace?: string; name?: string };
  destination?: { namespace?: string; name?: string };
}

/** Finds a Provider by namespace and name. */
export type ProviderLookup = (namespace: string, name: string) => Provider | undefined;

/** What {@link validateProviderPair} found. */
export interface ProviderPairResult {
  conditions: NewCondition[];
  source?: Provider;
  destination?: Provider;
}

/**
 * Checks both providers as upstream: `Source|DestinationProviderNotValid` (Critical, NotSet
 * or NotFound), `Source|DestinationProviderNotReady` (Critical) without their Ready
 * condition, and `DestinationProviderNotValid` (TypeNotValid) when the destination is not
 * `openshift`. References without a namespace resolve in `namespace`.
 */
export function validateProviderPair(
  pair: ProviderPair | undefined,
  namespace: string,
  lookup: ProviderLookup,
): ProviderPairResult {
  const result: ProviderPairResult = { conditions: [] };
  const side = (which: 'Source' | 'Destination', ref: ProviderPair['source']) => {
    const notValid = (reason: string): NewCondition => ({
      type: ResourceConditionType[`${which}ProviderNotValid`],
      status: True,
      reason,
      category: Category.Critical,
      message: `The ${which.toLowerCase()} provider is not valid.`,
    });
    if (!ref?.name) {
      result.conditions.push(notValid(Reason.NotSet));
      return undefined;
    }
    const provider = lookup(ref.namespace || namespace, ref.name);
    if (provider === undefined) {
      result.conditions.push(notValid(Reason.NotFound));
      return undefined;
    }
    if (!hasReady(provider)) {
      result.conditions.push({
        type: ResourceConditionType[`${which}ProviderNotReady`],
        status: True,
        category: Category.Critical,
        message: `The ${which.toLowerCase()} provider does not have the Ready condition.`,
      });
    }
    return provider;
  };
  const source = side('Source', pair?.source);
  const destination = side('Destination', pair?.destination);
  if (source) result.source = source;
  if (destination) {
    result.destination = destination;
    if (destination.spec.type !== 'openshift') {
      result.conditions.push({
        type: ResourceConditionType.DestinationProviderNotValid,
        status: True,
        reason: Reason.TypeNotValid,
        category: Category.Critical,
        message: 'The destination provider is not valid.',
      });
    }
  }
  return result;
}

/** Whether a provider is the host cluster (an `openshift` provider without `url`). */
export function isHost(provider: Provider | undefined): boolean {
  return provider?.spec.type === 'openshift' && !provider.spec.url;
}
