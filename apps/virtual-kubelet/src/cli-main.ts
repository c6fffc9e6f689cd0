//! ctrlkit-virtual-kubelet: flags, JSON logs, signals, and the manager.

import { runMain } from '@ctrlkit/runtime/cli';
import { pino } from 'pino';
import { parseFlags, usage } from './flags.js';
import { buildVirtualKubelet, runVirtualKubelet } from './run.js';

process.exitCode = await runMain({
  parse: (argv) => parseFlags([...argv]),
  usage,
  logger: (flags) => pino({ level: flags.logLevel, base: { node: flags.nodename } }),
  async run(flags, logger, signal) {
    const vk = buildVirtualKubelet(flags, logger);
    logger.info(
      {
        provider: flags.provider,
        workers: flags.podSyncWorkers,
        operatingSystem: flags.operatingSystem,
        startupTimeoutMs: flags.startupTimeoutMs,
      },
      'starting virtual kubelet',
    );
    await runVirtualKubelet(vk, flags.startupTimeoutMs, signal);
    logger.info({}, 'virtual kubelet stopped');
  },
});
