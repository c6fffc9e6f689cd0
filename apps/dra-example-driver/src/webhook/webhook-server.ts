//! The webhook server of ctrlkit-dra-example-webhook: the claim-parameter webhooks on a runtime WebhookServer.

import type { Logger } from '@ctrlkit/core';
import { WebhookServer } from '@ctrlkit/runtime/webhook';
import { resourceClaimParametersWebhooks } from './claim-parameters-webhook.js';
import type { WebhookFlags } from './webhook-flags.js';

/** What {@link driverWebhookServer} needs: the certificate, the port and the driver. */
export type DriverWebhookServerOptions = Pick<
  WebhookFlags,
  'certDir' | 'certName' | 'keyName' | 'port' | 'driverName'
> & { host?: string; logger?: Logger };

/**
 * A WebhookServer serving {@link resourceClaimParametersWebhooks} for `driverName`; give it
 * to a Manager (`webhookServer`), which runs it and reports it in `/readyz` and `/metrics`.
 */
export function driverWebhookServer(options: DriverWebhookServerOptions): WebhookServer {
  const server = new WebhookServer({
    ...(options.host !== undefined && { host: options.host }),
    port: options.port,
    certDir: options.certDir,
    certName: options.certName,
    keyName: options.keyName,
    ...(options.logger !== undefined && { logger: options.logger }),
  });
  for (const webhook of resourceClaimParametersWebhooks(options.driverName))
    server.register(webhook);
  return server;
}
