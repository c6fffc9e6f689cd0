#!/usr/bin/env node
//! ctrlkit-virtual-kubelet: flags, JSON logs, signals, and the manager.

import { setupSignalHandler } from '@ctrlkit/runtime';
import { InvalidArgumentError } from '@ctrlkit/workqueue';
import { pino } from 'pino';
import { parseFlags, usage } from './flags.js';
import { buildVirtualKubelet } from './run.js';

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
  const logger = pino({ level: flags.logLevel, base: { node: flags.nodename } });
  const signal = setupSignalHandler();
  const { manager } = buildVirtualKubelet(flags, logger);
  logger.info(
    { provider: flags.provider, workers: flags.podSyncWorkers },
    'starting virtual kubelet',
  );
  ran = true;
  try {
    await manager.start(signal);
  } catch (error) {
    logger.error({ err: error }, 'virtual kubelet stopped with an error');
    return 1;
  }
  logger.info({}, 'virtual kubelet stopped');
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
