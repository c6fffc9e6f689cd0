//! Forklift's provider admitter and mutator: a vSphere provider's SDK endpoint type is vCenter (the default) or ESXi.

import type { Provider } from '@ctrlkit/plan-migration/api';
import type { CustomDefaulter, CustomValidator } from '@ctrlkit/runtime/webhook';
import { denied } from './denied.js';

/** The `spec.settings` key of a vSphere provider's SDK endpoint type (Forklift's `api.SDK`). */
export const SDK_ENDPOINT_SETTING = 'sdkEndpoint';
/** The SDK endpoint types of a vSphere provider (Forklift's `api.VCenter`, `api.ESXI`); the first is the default. */
export const SDK_ENDPOINT_TYPES = ['vcenter', 'esxi'] as const;

/**
 * Validates Providers on create and update: a vSphere provider whose
 * `spec.settings.sdkEndpoint` is set must name `vcenter` or `esxi` (Forklift's message, code 400).
 */
export function providerAdmitter(): CustomValidator<Provider> {
  const check = (provider: Provider): undefined => {
    const endpoint = provider.spec.settings?.[SDK_ENDPOINT_SETTING];
    if (
      provider.spec.type === 'vsphere' &&
      endpoint !== undefined &&
      !(SDK_ENDPOINT_TYPES as readonly string[]).includes(endpoint)
    ) {
      throw denied(
        `vSphere provider is set with an invalid SDK endpoint type: endpoint ${JSON.stringify(endpoint)}`,
      );
    }
    return undefined;
  };
  return {
    validateCreate: (provider) => check(provider),
    validateUpdate: (_old, provider) => check(provider),
    validateDelete: () => undefined,
  };
}

/**
 * Defaults Providers as Forklift's provider mutator: a vSphere provider without
 * `spec.settings.sdkEndpoint` gets `vcenter`. (Forklift also adds its OVA and Hyper-V
 * provider-server finalizers on create; this controller runs no provider server to clean
 * up, so it adds none.)
 */
export function providerMutator(): CustomDefaulter<Provider> {
  return {
    default(provider) {
      if (provider.spec.type !== 'vsphere') return;
      provider.spec.settings ??= {};
      provider.spec.settings[SDK_ENDPOINT_SETTING] ??= SDK_ENDPOINT_TYPES[0];
    },
  };
}
