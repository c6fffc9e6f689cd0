// The suite's global setup: a folder for each case's figures, printed as one table at the end.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RESULTS_DIR_ENV, resultsTable } from './results.js';

export default async function faultsGlobalSetup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'ctrlkit-faults-'));
  process.env[RESULTS_DIR_ENV] = dir;
  return async () => {
    const table = await resultsTable(dir);
    if (table !== undefined) console.log(`\nFault suite (tests/faults):\n\n${table}\n`);
    delete process.env[RESULTS_DIR_ENV];
    await rm(dir, { recursive: true, force: true });
  };
}
