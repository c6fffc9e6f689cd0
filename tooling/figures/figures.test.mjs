import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFigures } from './check.mjs';
import { renderTable, startMeasuring, writeResults } from './index.mjs';

const table = {
  columns: ['workers', 'pods/s'],
  rows: [
    [1, 120.5],
    [4, null],
  ],
};

function tree(readme) {
  const root = mkdtempSync(join(tmpdir(), 'figures-'));
  mkdirSync(join(root, 'pkg', 'bench'), { recursive: true });
  const results = writeResults(join(root, 'pkg', 'bench', 'results.json'), {
    command: 'pnpm bench',
    tables: { burst: table },
  });
  writeFileSync(join(root, 'pkg', 'README.md'), readme(results));
  return root;
}

const block = (body) =>
  `# pkg\n\n<!-- figures: bench/results.json#burst -->\n${body}\n<!-- /figures -->\n`;

describe('writeResults', () => {
  it('records the command, commit, date, load and machine beside the tables', () => {
    const root = mkdtempSync(join(tmpdir(), 'figures-'));
    const results = writeResults(join(root, 'r.json'), { command: 'node x', tables: { t: table } });
    const written = JSON.parse(readFileSync(join(root, 'r.json'), 'utf8'));
    expect(written).toEqual(results);
    expect(written.command).toBe('node x');
    expect(written.load.start).toHaveLength(3);
    expect(written.machine.cpus).toBeGreaterThan(0);
    expect(written.commit).toMatch(/\S/);
  });

  it('records the commit of a folder it has to make first', () => {
    const results = writeResults(join(process.cwd(), '.vitest', `new-${process.pid}`, 'r.json'), {
      command: 'node x',
      tables: {},
    });
    expect(results.commit).toMatch(/^[0-9a-f]{12}/);
  });

  it('records the commit a run started at, and the HEAD it was written at when that moved', () => {
    const repo = mkdtempSync(join(tmpdir(), 'figures-git-'));
    const git = (...args) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: repo,
        encoding: 'utf8',
      }).trim();
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'first');
    const first = git('rev-parse', '--short=12', 'HEAD');
    const started = startMeasuring(repo);
    const same = writeResults(join(repo, 'r.json'), { command: 'x', tables: {}, started });
    expect(same.commit).toBe(first);
    git('commit', '-q', '--allow-empty', '-m', 'second');
    const second = git('rev-parse', '--short=12', 'HEAD');
    const moved = writeResults(join(repo, 'r.json'), { command: 'x', tables: {}, started });
    expect(moved.commit).toBe(`${first}; HEAD ${second} when written`);
  });

  it('refuses a row whose cells do not match the columns, naming the table and row', () => {
    expect(() =>
      writeResults(join(tmpdir(), 'never.json'), {
        command: 'x',
        tables: { t: { columns: ['a', 'b'], rows: [[1]] } },
      }),
    ).toThrow(/table "t" row 0 has 1 cells for 2 columns/);
  });
});

describe('checkFigures', () => {
  it('passes a block that holds what its results file renders', () => {
    const root = tree((results) => block(renderTable(results, 'burst')));
    expect(checkFigures(root)).toEqual({ blocks: 1, problems: [] });
  });

  it('fails on a figure edited by hand, naming the file and line', () => {
    const root = tree((results) => block(renderTable(results, 'burst').replace('120.5', '150')));
    const { problems } = checkFigures(root);
    expect(problems).toEqual([expect.stringMatching(/^pkg\/README\.md:3: the table differs/)]);
  });

  it('fails on a missing results file, an unknown table and an unclosed block', () => {
    const root = tree(
      () =>
        '<!-- figures: bench/gone.json#burst -->\n<!-- /figures -->\n' +
        '<!-- figures: bench/results.json#nope -->\n<!-- /figures -->\n' +
        '<!-- figures: bench/results.json#burst -->\n',
    );
    const { problems } = checkFigures(root);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/gone\.json is missing/);
    expect(problems[1]).toMatch(/no table "nope" \(it has: burst\)/);
    expect(problems[2]).toMatch(/without its closing/);
  });

  it('leaves a block shown inside a fenced code example alone', () => {
    const root = tree(() => '```md\n<!-- figures: bench/gone.json#x -->\n<!-- /figures -->\n```\n');
    expect(checkFigures(root)).toEqual({ blocks: 0, problems: [] });
  });

  it('--write renders the blocks anew, after which the check passes', () => {
    const root = tree(() => block('| stale |'));
    expect(checkFigures(root).problems).toHaveLength(1);
    expect(checkFigures(root, { write: true }).problems).toEqual([]);
    expect(checkFigures(root).problems).toEqual([]);
    expect(readFileSync(join(root, 'pkg', 'README.md'), 'utf8')).toContain('| 4 | - |');
  });
});
