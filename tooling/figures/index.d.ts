/** One table of figures: column titles and rows of cells, in the order a person reads them. */
export interface FiguresTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number | null)[])[];
  /** A sentence under the table (what the figures mean); optional. */
  readonly caption?: string;
}

/** One point of a curve: `y` the median of the rounds at size `x`, `min`/`max` their spread. */
export interface FiguresPoint {
  readonly x: number;
  readonly y: number;
  readonly min?: number;
  readonly max?: number;
}

/** A figure against a size, one series per implementation (ours and the peer's), drawn as an SVG. */
export interface FiguresCurve {
  readonly title: string;
  /** The size axis; `scale` is `linear` (default) or `log`. */
  readonly x: { readonly label: string; readonly scale?: 'linear' | 'log' };
  /** The figure's axis, from 0. */
  readonly y: { readonly label: string };
  readonly series: readonly { readonly name: string; readonly points: readonly FiguresPoint[] }[];
  /** A sentence under the plot; default: what dots and bars mean. */
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
  /** Curves, each also written as an SVG beside the results file ({@link plotPath}). */
  readonly curves?: Readonly<Record<string, FiguresCurve>>;
}

/**
 * Remembers the load, time and commit (of the checkout at `cwd`, default the working directory)
 * a measuring run started with; call at its start.
 */
export function startMeasuring(cwd?: string): {
  readonly load: readonly number[];
  readonly date: string;
  readonly commit: string;
};

/**
 * Writes `tables` and `curves` into the results file `path` (JSON), with the commit, date, command,
 * machine and the load at `started` and now, and each curve's SVG beside it. Returns what it wrote.
 */
export function writeResults(
  path: string,
  options: {
    readonly command: string;
    readonly tables: Readonly<Record<string, FiguresTable>>;
    readonly curves?: Readonly<Record<string, FiguresCurve>>;
    readonly started?: {
      readonly load: readonly number[];
      readonly date: string;
      readonly commit?: string;
    };
  },
): ResultsFile;

/** The Markdown a README shows for one table of a results file: provenance line, then the table. */
export function renderTable(results: ResultsFile, name: string): string;

/** Where the SVG of curve `name` of the results file `path` lives: `<path without .json>-<name>.svg`. */
export function plotPath(path: string, name: string): string;

/** The SVG of one curve of a results file, with the run's command, commit and date in a caption. */
export function renderPlot(results: ResultsFile, name: string): string;

/** The point of a curve at size `x` from the rounds measured there: their median, lowest and highest. */
export function pointOf(x: number, rounds: readonly number[]): Required<FiguresPoint>;
