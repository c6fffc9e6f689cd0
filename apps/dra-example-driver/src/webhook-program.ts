//! ctrlkit-dra-example-webhook: flags, logger, a Manager running the webhook server, signals.

import { runProgram } from './program.js';
import { parseWebhookFlags, webhookUsage } from './webhook/webhook-flags.js';
import { driverWebhookServer } from './webhook/webhook-server.js';

process.exitCode = await runProgram({
  name: 'ctrlkit-dra-example-webhook',
  parse: (argv) => parseWebhookFlags(argv),
  usage: webhookUsage,
  managerOptions: (flags, logger) => ({
    webhookServer: driverWebhookServer({ ...flags, logger }),
  }),
});
