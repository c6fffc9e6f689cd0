// The requests a test run's apps made, recorded by each app's stop() for the run's check of
// unused rules (test files run in worker processes; the check runs in the main one).

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordedRequest } from './rbac-usage.js';

/** The environment variable naming the run's folder of recorded requests. */
export const USAGE_DIR_ENV = 'CTRLKIT_APP_TESTING_USAGE_DIR';

/** Every request recorded in `dir` for `username`. */
export async function readRecordedRequests(
  dir: string,
  username: string,
): Promise<RecordedRequest[]> {
  const requests: RecordedRequest[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json'))) {
    const record = JSON.parse(await readFile(join(dir, file), 'utf8')) as {
      username: string;
      requests: RecordedRequest[];
    };
    if (record.username === username) requests.push(...record.requests);
  }
  return requests;
}
