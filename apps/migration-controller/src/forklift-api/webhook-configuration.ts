//! forklift-api's ValidatingWebhookConfiguration and MutatingWebhookConfiguration, generated from the registered webhooks into deploy/.

import { GROUP } from '@ctrlkit/plan-migration';
import type { ApiGroup } from '@ctrlkit/plan-migration/api';
import {
  mutatingWebhookConfiguration,
  validatingWebhookConfiguration,
} from '@ctrlkit/runtime/webhook';
import type {
  V1MutatingWebhookConfiguration,
  V1ValidatingWebhookConfiguration,
} from '@kubernetes/client-node';
import { forkliftApiWebhooks } from './forklift-api-webhooks.js';

/** Where deploy/'s generated configurations are committed, relative to the app. */
export const WEBHOOK_CONFIGURATION_PATH = 'deploy/webhook-configuration.yaml';
/** The command that regenerates {@link WEBHOOK_CONFIGURATION_PATH}. */
export const REGENERATE_WEBHOOK_CONFIGURATION_COMMAND =
  'pnpm --filter @ctrlkit/migration-controller generate:deploy';
/** deploy/'s Service in front of ctrlkit-forklift-api (Forklift's `forklift-api` Service, port 443). */
export const FORKLIFT_API_SERVICE = {
  name: 'ctrlkit-forklift-api',
  namespace: 'ctrlkit-migration',
  port: 443,
} as const;

/** Options of {@link forkliftApiWebhookConfigurations}. */
export interface ForkliftApiWebhookConfigurationOptions {
  /** Both configurations' name. Default `ctrlkit-forklift-api`. */
  name?: string;
  /** The group served. Default `forklift.ctrlkit.dev`. */
  apiGroup?: ApiGroup;
  /** The Service in front of the webhook server. Default {@link FORKLIFT_API_SERVICE}. */
  service?: { name: string; namespace: string; port?: number };
}

/**
 * The ValidatingWebhookConfiguration and MutatingWebhookConfiguration of
 * `forkliftApiWebhooks` for one group, calling them through a Service (deploy/'s by default).
 */
export function forkliftApiWebhookConfigurations(
  options: ForkliftApiWebhookConfigurationOptions = {},
): [V1ValidatingWebhookConfiguration, V1MutatingWebhookConfiguration] {
  const name = options.name ?? 'ctrlkit-forklift-api';
  // The configurations need the webhooks' options only: no call reaches this client.
  const webhooks = forkliftApiWebhooks({
    apiGroup: options.apiGroup ?? GROUP,
    client: {
      get: unreachable,
      list: unreachable,
      create: unreachable,
    },
  });
  const client = { service: options.service ?? FORKLIFT_API_SERVICE };
  return [
    validatingWebhookConfiguration(name, webhooks, client),
    mutatingWebhookConfiguration(name, webhooks, client),
  ];
}

function unreachable(): never {
  throw new Error('forkliftApiWebhookConfigurations: the webhooks are not served from here');
}
