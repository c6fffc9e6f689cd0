//! The Manager of ctrlkit-forklift-api: a WebhookServer with forklift-api's webhooks, which read the cluster through the Manager's one client.

import type { Logger } from '@ctrlkit/core';
import { loadKubeConfig, Manager } from '@ctrlkit/runtime';
import type { KubeConfigLike } from '@ctrlkit/runtime/client';
import { WebhookServer } from '@ctrlkit/runtime/webhook';
import packageJson from '../../package.json' with { type: 'json' };
import type { ForkliftApiFlags } from '../flags.js';
import { forkliftApiWebhooks } from './forklift-api-webhooks.js';

/** The program named in the `User-Agent` of forklift-api's requests. */
export const FORKLIFT_API_PROGRAM_NAME = 'ctrlkit-forklift-api';

/** What {@link buildForkliftApiManager} built. */
export interface ForkliftApiManager {
  manager: Manager;
  server: WebhookServer;
}

/**
 * Builds the Manager (no leader election: every replica serves, `/metrics`, probes with
 * `/readyz` failing until the server listens) and its WebhookServer on `--port` with the
 * certificate of `--cert-dir` (or `--tls-cert-file`), serving `forkliftApiWebhooks` for
 * `--api-group` with the Manager's client. `host` (default: every address) is for tests.
 */
export function buildForkliftApiManager(
  flags: ForkliftApiFlags,
  logger: Logger,
  kubeConfig: KubeConfigLike = loadKubeConfig({
    kubeconfig: flags.kubeconfig,
    insecureSkipTlsVerify: flags.insecureSkipTlsVerify,
    logger,
  }),
  host?: string,
): ForkliftApiManager {
  const server = new WebhookServer({
    ...(host !== undefined && { host }),
    port: flags.port,
    certDir: flags.certDir,
    certName: flags.certName,
    keyName: flags.keyName,
    logger,
  });
  const manager = new Manager({
    kubeConfig,
    program: { name: FORKLIFT_API_PROGRAM_NAME, version: packageJson.version },
    logger,
    metricsBindAddress: flags.metricsBindAddress,
    healthProbeBindAddress: flags.healthProbeBindAddress,
    contentType: flags.kubeApiContentType,
    webhookServer: server,
  });
  for (const webhook of forkliftApiWebhooks({ client: manager.client, apiGroup: flags.apiGroup }))
    server.register(webhook);
  return { manager, server };
}
