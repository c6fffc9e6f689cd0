//! ctrlkit-dra-example-driver: flags, logger, Manager, signals.

import { addDriver } from './driver.js';
import { parseFlags, usage } from './flags.js';
import { runProgram } from './program.js';

process.exitCode = await runProgram({
  name: 'ctrlkit-dra-example-driver',
  parse: (argv) => parseFlags(argv),
  usage,
  setUp: (manager, flags, logger) => addDriver(manager, { ...flags, logger }),
});
