// The suite's global setup: a folder for each case's figures; at the end one table per app,
// printed, and, when CTRLKIT_FAULTS_WRITE_RESULTS=1 and every case reported (a complete run),
// written into the committed results file (results/faults.json) that the README shows, its
// caption naming any test that failed.

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMeasuring, writeResults } from '@ctrlkit/figures';
import { printTables, RESULTS_DIR_ENV, readResults, resultsTables } from './results.js';
import { RUN_FAILED_ENV } from './run-outcome-reporter.js';

/** Set to 1 to write the results file (only a run of every case may). */
export const WRITE_RESULTS_ENV = 'CTRLKIT_FAULTS_WRITE_RESULTS';
/** The results file the README shows. */
export const RESULTS_FILE = fileURLToPath(new URL('../results/faults.json', import.meta.url));
/** The cases each app's files run: a results file is written only when all of them reported. */
export const EXPECTED_CASES: Readonly<Record<string, number>> = {
  'dra-example-driver': 6,
  'migration-controller': 8,
  'virtual-kubelet': 9,
};

export default async function faultsGlobalSetup(): Promise<() => Promise<void>> {
  const started = startMeasuring();
  const startedAt = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'ctrlkit-faults-'));
  process.env[RESULTS_DIR_ENV] = dir;
  return async () => {
    try {
      const results = await readResults(dir);
      if (results.length === 0) return;
      const tables = resultsTables(results);
      const wallS = Math.round((Date.now() - startedAt) / 1000);
      console.log(`\nFault suite (tests/faults), ${wallS} s:\n\n${printTables(tables)}\n`);
      if (process.env[WRITE_RESULTS_ENV] !== '1') return;
      const missing = Object.entries(EXPECTED_CASES)
        .map(([app, n]) => [app, n - results.filter((r) => r.app === app).length] as const)
        .filter(([, short]) => short !== 0);
      if (missing.length > 0) {
        throw new Error(
          `${WRITE_RESULTS_ENV}=1 but not every case reported (${missing.map(([a, s]) => `${a}: ${s} short`).join(', ')}): ${RESULTS_FILE} not written`,
        );
      }
      const failed = JSON.parse(
        process.env[RUN_FAILED_ENV] ?? '["run outcome unknown"]',
      ) as string[];
      const outcome =
        failed.length === 0 ? 'every case passed' : `FAILED in this run: ${failed.join('; ')}`;
      const caption = `The suite's wall time: ${wallS} s; ${outcome}.`;
      for (const table of Object.values(tables)) Object.assign(table, { caption });
      // The folder first: writeResults reads the commit with git from it.
      await mkdir(dirname(RESULTS_FILE), { recursive: true });
      writeResults(RESULTS_FILE, { command: commandLine(), tables, started });
    } finally {
      delete process.env[RESULTS_DIR_ENV];
      await rm(dir, { recursive: true, force: true });
    }
  };
}

/** The command that ran the suite: the package script when run through one, else vitest's argv. */
function commandLine(): string {
  const script = process.env.npm_lifecycle_event;
  const pkg = process.env.npm_package_name;
  if (script !== undefined && pkg !== undefined) return `pnpm --filter ${pkg} run ${script}`;
  return process.argv.slice(1).join(' ');
}
