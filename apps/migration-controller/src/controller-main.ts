//! ctrlkit-migration-controller: flags, JSON logs, signals, and the manager.

import { runMain } from '@ctrlkit/runtime/cli';
import { pino } from 'pino';
import { buildControllerManager } from './controller-manager.js';
import { parseFlags, usage } from './flags.js';

process.exitCode = await runMain({
  parse: (argv) => parseFlags(argv),
  usage,
  logger: (flags) => pino({ level: flags.logLevel, base: { app: 'migration-controller' } }),
  async run(flags, logger, signal) {
    const built = buildControllerManager(flags, logger);
    logger.info(
      {
        leaderElect: flags.leaderElect,
        maxVmInflight: flags.maxVmInflight,
        ovaCatalogPath: flags.ovaCatalogPath,
        ...(built.shard && { shardsRing: flags.shardsRing, shard: built.shard.shardName }),
      },
      'starting migration controller',
    );
    await built.manager.start(signal);
    logger.info({}, 'migration controller stopped');
  },
});
