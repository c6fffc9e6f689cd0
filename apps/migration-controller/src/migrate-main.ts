//! ctrlkit-migrate: follow a migration plan from the command line.

import { runMigrate } from './migrate-cli.js';

runMigrate(
  process.argv.slice(2),
  (text) => process.stdout.write(text),
  (text) => process.stderr.write(text),
).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
