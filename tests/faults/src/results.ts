//! The figures of one app under one fault, kept in a folder the global setup prints as one table.

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where each case writes its row (set by the global setup). */
export const RESULTS_DIR_ENV = 'CTRLKIT_FAULTS_RESULTS_DIR';

/** What one case measured. */
export interface FaultResult {
  readonly app: string;
  readonly fault: string;
  /** Work given to the app: pods to run, pools to publish. */
  readonly queued: number;
  /** Work done when the case ended (must equal `queued`). */
  readonly reconciled: number;
  /** Side effects done twice (a pod recreated or deleted, a slice written twice): must be 0. */
  readonly duplicates: number;
  /** From the end of the fault to the cluster in its final state, in ms. */
  readonly convergeMs: number;
  /** The app's API requests per minute from the fault's start to convergence. */
  readonly requestsPerMinDuring: number;
  /** The app's API requests per minute in the quiet period after convergence. */
  readonly requestsPerMinAfter: number;
  /** 409 Conflict answers the app got. */
  readonly conflicts: number;
  /** Watches the app was told had expired (410 Gone; its logs), where the case provokes them. */
  readonly expired?: number;
  /** 429 Too Many Requests answers the app got (audit log), where the case provokes them. */
  readonly throttled?: number;
  /** The app's resident memory before the fault, in MB (harness `rssMb`). */
  readonly rssBeforeMb?: number;
  /** The app's resident memory after convergence and the quiet period, in MB. */
  readonly rssAfterMb?: number;
}

/** Records `result` for the run's table, and logs it. */
export async function recordResult(result: FaultResult): Promise<void> {
  console.log(JSON.stringify(result));
  const dir = process.env[RESULTS_DIR_ENV];
  if (dir === undefined) return;
  const file = `${result.app}-${result.fault}`.replace(/[^a-z0-9-]+/gi, '-');
  await writeFile(join(dir, `${file}.json`), JSON.stringify(result));
}

/** Every recorded result, as a Markdown table, or `undefined` when there is none. */
export async function resultsTable(dir: string): Promise<string | undefined> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) return undefined;
  const rows = await Promise.all(
    files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as FaultResult),
  );
  const header =
    '| app | fault | queued | reconciled | lost | duplicates | converge (s) | req/min during | req/min after | 409s | 410s | 429s | RSS before → after (MB) |';
  const lines = rows.map(
    (r) =>
      `| ${r.app} | ${r.fault} | ${r.queued} | ${r.reconciled} | ${r.queued - r.reconciled} | ${r.duplicates} | ${(r.convergeMs / 1000).toFixed(1)} | ${Math.round(r.requestsPerMinDuring)} | ${Math.round(r.requestsPerMinAfter)} | ${r.conflicts} | ${r.expired ?? '-'} | ${r.throttled ?? '-'} | ${memory(r)} |`,
  );
  return [header, '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|', ...lines].join('\n');
}

function memory(r: FaultResult): string {
  if (r.rssBeforeMb === undefined || r.rssAfterMb === undefined) return 'not measured';
  return `${Math.round(r.rssBeforeMb)} → ${Math.round(r.rssAfterMb)}`;
}
