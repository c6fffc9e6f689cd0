//! The figures of one app under one fault, kept in a folder the global setup turns into the suite's results file.

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FiguresTable } from '@ctrlkit/figures';

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
  /**
   * Of the 429s, the smallest wait before the app sent the same request again minus the
   * `Retry-After` that 429 carried, in ms (recording proxy): >= 0 when every wait honoured it.
   */
  readonly retryAfterMarginMs?: number;
  /** Work given but not done when the fault hit (restart, SIGTERM): > 0 shows it hit work in flight. */
  readonly inFlightAtFault?: number;
  /** The most provider creates of one pod (virtual kubelet's mock provider): 1 when none repeated. */
  readonly createsPerPodMax?: number;
  /** How long an informer was seen out of `watching` during the fault, in ms (its `/metrics`). */
  readonly unwatchedMs?: number;
  /** `/healthz` answers that were not 200 during the fault, of those polled. */
  readonly healthzFailed?: string;
  /** The app's resident memory before the fault, in MB (harness `rssMb`). */
  readonly rssBeforeMb?: number;
  /** The app's resident memory after convergence and the quiet period, in MB. */
  readonly rssAfterMb?: number;
}

/** Records `result` for the run's results file, and logs it. */
export async function recordResult(result: FaultResult): Promise<void> {
  console.log(JSON.stringify(result));
  const dir = process.env[RESULTS_DIR_ENV];
  if (dir === undefined) return;
  const file = `${result.app}-${result.fault}`.replace(/[^a-z0-9-]+/gi, '-');
  await writeFile(join(dir, `${file}.json`), JSON.stringify(result));
}

/** Every result recorded in `dir`, by app then fault. */
export async function readResults(dir: string): Promise<FaultResult[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as FaultResult),
  );
}

const COLUMNS = [
  'fault',
  'queued',
  'reconciled',
  'lost',
  'duplicates',
  'in flight at fault',
  'converge (s)',
  'req/min during',
  'req/min after',
  '409s',
  '410s',
  '429s',
  '429 wait − Retry-After, min (ms)',
  'provider creates per pod, max',
  'not watching (s)',
  '/healthz failed',
  'RSS before → after (MB)',
] as const;

/** One table per app (named for it), every column the cases measure; `-` where a case does not apply. */
export function resultsTables(results: readonly FaultResult[]): Record<string, FiguresTable> {
  const tables: Record<string, FiguresTable> = {};
  for (const app of [...new Set(results.map((r) => r.app))].sort()) {
    const rows = results.filter((r) => r.app === app).map(row);
    tables[app] = { columns: COLUMNS, rows };
  }
  return tables;
}

const seconds = (ms: number | undefined) => (ms === undefined ? null : round(ms / 1000, 1));
const round = (n: number, digits: number) => Number(n.toFixed(digits));

function row(r: FaultResult): (string | number | null)[] {
  return [
    r.fault,
    r.queued,
    r.reconciled,
    r.queued - r.reconciled,
    r.duplicates,
    r.inFlightAtFault ?? null,
    seconds(r.convergeMs),
    Math.round(r.requestsPerMinDuring),
    Math.round(r.requestsPerMinAfter),
    r.conflicts,
    r.expired ?? null,
    r.throttled ?? null,
    r.retryAfterMarginMs === undefined ? null : Math.round(r.retryAfterMarginMs),
    r.createsPerPodMax ?? null,
    seconds(r.unwatchedMs),
    r.healthzFailed ?? null,
    r.rssBeforeMb === undefined || r.rssAfterMb === undefined
      ? 'not measured'
      : `${Math.round(r.rssBeforeMb)} → ${Math.round(r.rssAfterMb)}`,
  ];
}

/** The tables as Markdown, for the run's log. */
export function printTables(tables: Record<string, FiguresTable>): string {
  return Object.entries(tables)
    .map(([app, t]) =>
      [
        `${app}:`,
        `| ${t.columns.join(' | ')} |`,
        ...t.rows.map((r) => `| ${r.map((c) => c ?? '-').join(' | ')} |`),
      ].join('\n'),
    )
    .join('\n\n');
}
