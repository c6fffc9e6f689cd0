#!/usr/bin/env node
//! ctrlkit-dra-example-driver: flags, logger, Manager, signals.

import { loadKubeConfig, Manager, setupSignalHandler } from '@ctrlkit/runtime';
import { pino } from 'pino';
import { addDriver } from './driver.js';
import { FlagError, parseFlags, usage } from './flags.js';

async function main(): Promise<number> {
  let flags: ReturnType<typeof parseFlags>;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (error) {
    if (!FlagError.isFlagError(error)) throw error;
    process.stderr.write(`${error.message}\n\n${usage()}`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(usage());
    return 0;
  }
  const logger = pino({ level: flags.logLevel, base: { app: 'dra-example-driver' } });
  try {
    const manager = new Manager({
      kubeConfig: loadKubeConfig({ kubeconfig: flags.kubeconfig || undefined }),
      userAgent: 'ctrlkit-dra-example-driver/0.1.0',
      logger,
      metricsBindAddress: flags.metricsBindAddress,
      healthProbeBindAddress: flags.healthProbeBindAddress,
    });
    addDriver(manager, { ...flags, logger });
    await manager.start(setupSignalHandler());
    logger.info({}, 'exiting');
    return 0;
  } catch (error) {
    logger.error({ err: error }, 'fatal');
    return 1;
  }
}

process.exitCode = await main();
