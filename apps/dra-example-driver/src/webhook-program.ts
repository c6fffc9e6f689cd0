//! ctrlkit-dra-example-webhook: flags, logger, a Manager running the webhook server, signals.

import { loadKubeConfig, Manager } from '@ctrlkit/runtime';
import { runMain } from '@ctrlkit/runtime/cli';
import { pino } from 'pino';
import packageJson from '../package.json' with { type: 'json' };
import { parseWebhookFlags, webhookUsage } from './webhook/webhook-flags.js';
import { driverWebhookServer } from './webhook/webhook-server.js';

process.exitCode = await runMain({
  parse: (argv) => parseWebhookFlags(argv),
  usage: webhookUsage,
  logger: (flags) => pino({ level: flags.logLevel, base: { app: 'dra-example-webhook' } }),
  async run(flags, logger, signal) {
    const manager = new Manager({
      kubeConfig: loadKubeConfig({ kubeconfig: flags.kubeconfig || undefined, logger }),
      program: { name: 'ctrlkit-dra-example-webhook', version: packageJson.version },
      logger,
      metricsBindAddress: flags.metricsBindAddress,
      healthProbeBindAddress: flags.healthProbeBindAddress,
      webhookServer: driverWebhookServer({ ...flags, logger }),
    });
    await manager.start(signal);
    logger.info({}, 'exiting');
  },
});
