//! The ValidatingWebhookConfiguration of the driver's webhooks, generated from the registered webhooks into deploy/.

import { validatingWebhookConfiguration } from '@ctrlkit/runtime/webhook';
import type { V1ValidatingWebhookConfiguration } from '@kubernetes/client-node';
import { DRIVER_NAME } from '../devices.js';
import { resourceClaimParametersWebhooks } from './claim-parameters-webhook.js';

/** Where deploy/'s generated configuration is committed, relative to the app. */
export const WEBHOOK_CONFIGURATION_PATH = 'deploy/webhook-configuration.yaml';
/** The command that regenerates {@link WEBHOOK_CONFIGURATION_PATH}. */
export const REGENERATE_WEBHOOK_CONFIGURATION_COMMAND =
  'pnpm --filter @ctrlkit/dra-example-driver generate:deploy';

/** Where the configuration's webhooks are served, and for which driver. */
export interface DriverWebhookConfigurationOptions {
  /** The configuration's name. Default `ctrlkit-dra-example-webhook` (deploy/'s). */
  name?: string;
  /** The Service in front of the webhook server. Default `dra-example-webhook` in `dra-example-driver`, port 443. */
  service?: { name: string; namespace: string; port?: number };
  /** The driver whose configurations are validated. Default `gpu.example.com`. */
  driverName?: string;
}

/** The ValidatingWebhookConfiguration of {@link resourceClaimParametersWebhooks}, calling them through a Service (deploy/'s by default). */
export function driverWebhookConfiguration(
  options: DriverWebhookConfigurationOptions = {},
): V1ValidatingWebhookConfiguration {
  return validatingWebhookConfiguration(
    options.name ?? 'ctrlkit-dra-example-webhook',
    resourceClaimParametersWebhooks(options.driverName ?? DRIVER_NAME),
    {
      service: options.service ?? {
        name: 'dra-example-webhook',
        namespace: 'dra-example-driver',
        port: 443,
      },
    },
  );
}
