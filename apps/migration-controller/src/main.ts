#!/usr/bin/env node
//! ctrlkit-migration-controller: flags, JSON logs, signals, and the manager.

import { setupSignalHandler } from '@ctrlkit/runtime';
import { InvalidArgumentError } from '@ctrlkit/workqueue';
import { pino } from 'pino';
import { buildControllerManager } from './controller-manager.js';
import { parseFlags, usage } from './flags.js';

/** True once the manager ran: then the process exits when it stops (keep-alive sockets must not hold it). */
let ran = false;

async function main(): Promise<number> {
  let flags: ReturnType<typeof parseFlags>;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (error) {
    if (!InvalidArgumentError.isInstance(error)) throw error;
    process.stderr.write(`${error.message}\n\n${usage()}`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(usage());
    return 0;
  }
  const logger = pino({ level: flags.logLevel, base: { app: 'migration-controller' } });
  const signal = setupSignalHandler();
  let built: ReturnType<typeof buildControllerManager>;
  try {
    built = buildControllerManager(flags, logger);
  } catch (error) {
    logger.error({ err: error }, 'cannot start');
    return 1;
  }
  logger.info(
    {
      leaderElect: flags.leaderElect,
      maxVmInflight: flags.maxVmInflight,
      ovaCatalogPath: flags.ovaCatalogPath,
    },
    'starting migration controller',
  );
  ran = true;
  try {
    await built.manager.start(signal);
  } catch (error) {
    logger.error({ err: error }, 'migration controller stopped with an error');
    return 1;
  }
  logger.info({}, 'migration controller stopped');
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
    if (ran) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
