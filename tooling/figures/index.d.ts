/** One table of figures: column titles and rows of cells, in the order a person reads them. */
export interface FiguresTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number | null)[])[];
  /** A sentence under the table (what the figures mean); optional. */
  readonly caption?: string;
}

/** What a measuring program writes: its tables, and where and how they were measured. */
export interface ResultsFile {
  readonly command: string;
  readonly commit: string;
  readonly date: string;
  /** `os.loadavg()` when the run started and when it ended. */
  readonly load: { readonly start: readonly number[]; readonly end: readonly number[] };
  readonly machine: { readonly cpus: number; readonly memoryGiB: number; readonly node: string };
  readonly tables: Readonly<Record<string, FiguresTable>>;
}

/** Remembers the load and time a measuring run started with; call at its start. */
export function startMeasuring(): { readonly load: readonly number[]; readonly date: string };

/**
 * Writes `tables` into the results file `path` (JSON), with the commit, date, command, machine and
 * the load at `started` and now. Returns what it wrote.
 */
export function writeResults(
  path: string,
  options: {
    readonly command: string;
    readonly tables: Readonly<Record<string, FiguresTable>>;
    readonly started?: { readonly load: readonly number[]; readonly date: string };
  },
): ResultsFile;

/** The Markdown a README shows for one table of a results file: provenance line, then the table. */
export function renderTable(results: ResultsFile, name: string): string;
