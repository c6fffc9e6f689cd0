// Figures written by code: a measuring program (a bench, the fault suite) writes its tables into a
// results file with where and how they were measured; READMEs show those tables through
// `<!-- figures: … -->` blocks that `check.mjs` renders and compares. Never a figure typed by hand.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { checkCurve, renderPlot } from './plot.mjs';

export { renderPlot };

/**
 * @param {string} [cwd] a folder of the checkout being measured (default: the working directory)
 * @returns {{ load: number[], date: string, commit: string }}
 */
export function startMeasuring(cwd = process.cwd()) {
  return { load: roundLoad(loadavg()), date: new Date().toISOString(), commit: currentCommit(cwd) };
}

/**
 * @param {string} path
 * @param {{ command: string, tables: Record<string, import('./index.d.ts').FiguresTable>, curves?: Record<string, import('./index.d.ts').FiguresCurve>, started?: { load: number[], date: string, commit?: string } }} options
 */
export function writeResults(path, { command, tables, curves, started }) {
  if (typeof command !== 'string' || command.length === 0) {
    throw new TypeError('writeResults: `command` must name the command that measured the figures');
  }
  for (const [name, table] of Object.entries(tables ?? {})) checkTable(name, table);
  for (const [name, curve] of Object.entries(curves ?? {})) {
    if (Object.hasOwn(tables ?? {}, name)) {
      throw new TypeError(`writeResults: "${name}" names both a table and a curve`);
    }
    checkCurve(name, curve);
  }
  const begun = started ?? startMeasuring();
  mkdirSync(dirname(path), { recursive: true });
  const results = {
    command,
    commit: commitMeasured(begun.commit, currentCommit(dirname(path))),
    date: begun.date,
    load: { start: begun.load, end: roundLoad(loadavg()) },
    machine: {
      cpus: cpus().length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    tables,
    ...(curves === undefined ? {} : { curves }),
  };
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  for (const name of Object.keys(curves ?? {})) {
    writeFileSync(plotPath(path, name), renderPlot(results, name));
  }
  return results;
}

/**
 * The point of a curve at size `x` from the rounds measured there: their median, lowest and highest.
 * @param {number} x
 * @param {readonly number[]} rounds
 */
export function pointOf(x, rounds) {
  if (rounds.length === 0 || !rounds.every(Number.isFinite)) {
    throw new TypeError(`pointOf: the rounds at ${x} must be finite numbers, at least one`);
  }
  const sorted = [...rounds].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const y = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { x, y, min: sorted[0], max: sorted[sorted.length - 1] };
}

/**
 * Where the SVG of curve `name` of the results file `path` lives: beside it, as
 * `<results file name without .json>-<name>.svg`.
 * @param {string} path
 * @param {string} name
 */
export function plotPath(path, name) {
  return join(dirname(path), `${basename(path, '.json')}-${name}.svg`);
}

/**
 * @param {import('./index.d.ts').ResultsFile} results
 * @param {string} name
 */
export function renderTable(results, name) {
  const table = results.tables?.[name];
  if (table === undefined) {
    const known = Object.keys(results.tables ?? {}).join(', ') || 'none';
    throw new Error(`the results file has no table "${name}" (it has: ${known})`);
  }
  const cell = (value) => (value === null || value === undefined ? '-' : String(value));
  const align = table.columns.map((_, i) =>
    table.rows.every((row) => typeof row[i] === 'number' || row[i] === null) ? '--:' : '---',
  );
  const lines = [
    `_Written by \`${results.command}\` at ${results.commit} on ${results.date.slice(0, 10)}; ` +
      `load ${results.load.start.join(' / ')} at the start, ${results.load.end.join(' / ')} at the end ` +
      `(${results.machine.cpus} cores, Node ${results.machine.node})._`,
    '',
    `| ${table.columns.join(' | ')} |`,
    `|${align.join('|')}|`,
    ...table.rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
  if (table.caption) lines.push('', table.caption);
  return lines.join('\n');
}

function checkTable(name, table) {
  if (!Array.isArray(table?.columns) || !Array.isArray(table?.rows)) {
    throw new TypeError(`writeResults: table "${name}" needs \`columns\` and \`rows\` arrays`);
  }
  table.rows.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== table.columns.length) {
      throw new TypeError(
        `writeResults: table "${name}" row ${i} has ${row?.length} cells for ${table.columns.length} columns`,
      );
    }
  });
}

function currentCommit(cwd) {
  try {
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return `${head.trim()}${dirty.trim() === '' ? '' : ' (with uncommitted changes)'}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

/**
 * The commit a run measured: the one it started at (a long run outlives commits made beside it,
 * and what it runs was loaded or built at its start), naming the HEAD it was written at when
 * that moved meanwhile.
 */
function commitMeasured(atStart, atEnd) {
  if (atStart === undefined) return atEnd;
  const head = (commit) => commit.split(' ')[0];
  return head(atStart) === head(atEnd) ? atEnd : `${atStart}; HEAD ${head(atEnd)} when written`;
}

function roundLoad(load) {
  return load.map((value) => Math.round(value * 100) / 100);
}
