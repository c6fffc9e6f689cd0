#!/usr/bin/env node
// pnpm check:figures [--write]
//
// Every `<!-- figures: <results file>#<table> -->` … `<!-- /figures -->` block in a Markdown file
// of the repository must hold exactly what `renderTable` makes of that results file's table. The
// check fails, naming the file and line, on a block that differs (a figure typed or edited by hand,
// or a results file rewritten by a newer run and not shown), on a missing results file or table, and
// on an unclosed block. A block may name a curve instead of a table: it then shows the curve's SVG
// (`![title](…svg)`), and the SVG file beside the results file must hold what `renderPlot` makes of
// the curve (the check fails on an SVG missing or edited). `--write` renders every block (and SVG)
// anew from its results file.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { plotPath, renderPlot, renderTable } from './index.mjs';

const OPEN = /^<!-- figures: (\S+?)#(\S+) -->$/;
const CLOSE = '<!-- /figures -->';
const SKIP = new Set(['node_modules', 'dist', '.git', '.turbo', 'CHANGELOG.md']);

/**
 * Checks (or, with `write`, renders anew) every figures block under `root`.
 * @param {string} root
 * @param {{ write?: boolean }} [options]
 * @returns {{ blocks: number, problems: string[] }}
 */
export function checkFigures(root, { write = false } = {}) {
  const problems = [];
  let blocks = 0;
  for (const file of markdownFiles(root)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('<!-- figures:')) continue;
    const name = relative(root, file);
    const { output, found, errors } = renderBlocks(text, dirname(file), name, { write });
    blocks += found;
    problems.push(...errors.filter((e) => !write || !e.includes('differs')));
    if (write && output !== text) writeFileSync(file, output);
  }
  return { blocks, problems };
}

/**
 * Renders the blocks of one Markdown text; `errors` name the file and line of each problem. With
 * `write`, the SVG of each curve shown is written anew.
 */
export function renderBlocks(text, dir, name, { write = false } = {}) {
  const lines = text.split('\n');
  const out = [];
  const errors = [];
  let found = 0;
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    out.push(lines[i]);
    if (lines[i].trimStart().startsWith('```')) fenced = !fenced;
    const open = fenced ? null : OPEN.exec(lines[i].trim());
    if (open === null) continue;
    found++;
    const end = lines.findIndex((line, j) => j > i && line.trim() === CLOSE);
    if (end === -1) {
      errors.push(`${name}:${i + 1}: a figures block without its closing ${CLOSE}`);
      continue;
    }
    const current = lines
      .slice(i + 1, end)
      .join('\n')
      .trim();
    let rendered;
    try {
      rendered = renderFrom(dir, open[1], open[2], write);
    } catch (error) {
      errors.push(`${name}:${i + 1}: ${error.message}`);
      out.push(...lines.slice(i + 1, end));
      i = end - 1;
      continue;
    }
    if (rendered !== current) {
      errors.push(
        `${name}:${i + 1}: the ${rendered.startsWith('![') ? 'image' : 'table'} differs from ${open[1]}#${open[2]} (run pnpm figures:update after the measuring program wrote it; never edit figures by hand)`,
      );
    }
    out.push('', rendered, '');
    i = end - 1;
  }
  return { output: out.join('\n'), found, errors };
}

/** The Markdown of a block: the table, or the image of the curve (whose SVG is checked or written). */
function renderFrom(dir, file, name, write) {
  const path = resolve(dir, file);
  if (!existsSync(path)) throw new Error(`results file ${path} is missing`);
  const results = JSON.parse(readFileSync(path, 'utf8'));
  const curve = results.curves?.[name];
  if (curve === undefined) return renderTable(results, name);
  const svg = plotPath(path, name);
  const expected = renderPlot(results, name);
  if (write) writeFileSync(svg, expected);
  else if (!existsSync(svg))
    throw new Error(`the plot ${relative(dir, svg)} is missing (run pnpm figures:update)`);
  else if (readFileSync(svg, 'utf8') !== expected) {
    throw new Error(
      `the plot ${relative(dir, svg)} differs from ${file}#${name} (run pnpm figures:update after the measuring program wrote it; never edit a plot by hand)`,
    );
  }
  return `![${curve.title}](${relative(dir, svg)})`;
}

function* markdownFiles(dir) {
  for (const entry of readdirSync(dir)) {
    if (SKIP.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* markdownFiles(path);
    else if (entry.endsWith('.md')) yield path;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const write = process.argv.includes('--write');
  const { blocks, problems } = checkFigures(root, { write });
  for (const problem of problems) console.error(`✘ ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(
    `✔ ${blocks} figures blocks ${write ? 'rendered from' : 'match'} their results files`,
  );
}
