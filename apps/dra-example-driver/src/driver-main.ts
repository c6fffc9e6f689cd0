//! ctrlkit-dra-example-driver: flags, logger, Manager, signals.

import { loadKubeConfig, Manager } from '@ctrlkit/runtime';
import { runMain } from '@ctrlkit/runtime/cli';
import { pino } from 'pino';
import packageJson from '../package.json' with { type: 'json' };
import { addDriver } from './driver.js';
import { parseFlags, usage } from './flags.js';

process.exitCode = await runMain({
  parse: (argv) => parseFlags(argv),
  usage,
  logger: (flags) => pino({ level: flags.logLevel, base: { app: 'dra-example-driver' } }),
  async run(flags, logger, signal) {
    const manager = new Manager({
      kubeConfig: loadKubeConfig({
        kubeconfig: flags.kubeconfig || undefined,
        insecureSkipTlsVerify: flags.insecureSkipTlsVerify,
        logger,
      }),
      program: { name: 'ctrlkit-dra-example-driver', version: packageJson.version },
      logger,
      metricsBindAddress: flags.metricsBindAddress,
      healthProbeBindAddress: flags.healthProbeBindAddress,
      contentType: flags.kubeApiContentType,
    });
    addDriver(manager, { ...flags, logger });
    await manager.start(signal);
    logger.info({}, 'exiting');
  },
});
