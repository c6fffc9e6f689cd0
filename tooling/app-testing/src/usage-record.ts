// The requests a test run's apps made, recorded by each app's stop() for the run's check of
// unused rules (test files run in worker processes; the check runs in the main one).

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordedRun } from './least-privilege.js';
import type { RecordedRequest } from './rbac-usage.js';

/** The environment variable naming the run's folder of recorded requests. */
export const USAGE_DIR_ENV = 'CTRLKIT_APP_TESTING_USAGE_DIR';

/** The runs recorded in `dir` for `username`: the requests of each app process, one per file. */
export async function readRecordedRuns(dir: string, username: string): Promise<RecordedRun[]> {
  const runs: RecordedRun[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()) {
    const record = JSON.parse(await readFile(join(dir, file), 'utf8')) as {
      username: string;
      requests: RecordedRequest[];
    };
    if (record.username === username) runs.push(record.requests);
  }
  return runs;
}
