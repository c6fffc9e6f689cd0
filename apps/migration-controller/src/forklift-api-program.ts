//! ctrlkit-forklift-api: flags, JSON logs, signals, and the webhook server's manager.

import { runMain } from '@ctrlkit/runtime/cli';
import { pino } from 'pino';
import { forkliftApiUsage, parseForkliftApiFlags } from './flags.js';
import { buildForkliftApiManager } from './forklift-api/forklift-api-manager.js';

process.exitCode = await runMain({
  parse: (argv) => parseForkliftApiFlags(argv),
  usage: forkliftApiUsage,
  logger: (flags) => pino({ level: flags.logLevel, base: { app: 'forklift-api' } }),
  async run(flags, logger, signal) {
    const { manager } = buildForkliftApiManager(flags, logger);
    logger.info({ apiGroup: flags.apiGroup, port: flags.port }, 'starting forklift-api');
    await manager.start(signal);
    logger.info({}, 'forklift-api stopped');
  },
});
