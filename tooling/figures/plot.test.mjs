import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFigures } from './check.mjs';
import { plotPath, pointOf, renderPlot, writeResults } from './index.mjs';

const curve = {
  title: 'Adds per second',
  x: { label: 'workers', scale: 'log' },
  y: { label: 'adds/s' },
  series: [
    {
      name: 'ctrlkit',
      points: [
        { x: 1, y: 30e6, min: 29e6, max: 31e6 },
        { x: 16, y: 25e6, min: 25e6, max: 25e6 },
      ],
    },
    {
      name: 'client-go',
      points: [
        { x: 1, y: 35e6 },
        { x: 16, y: 26e6, min: 24e6, max: 27e6 },
      ],
    },
  ],
};

function tree(readme, curves = { adds: curve }) {
  const root = mkdtempSync(join(tmpdir(), 'plots-'));
  mkdirSync(join(root, 'pkg', 'bench'), { recursive: true });
  const path = join(root, 'pkg', 'bench', 'scale.json');
  writeResults(path, { command: 'pnpm bench -- --scale', tables: {}, curves });
  writeFileSync(join(root, 'pkg', 'README.md'), readme);
  return { root, svg: plotPath(path, 'adds') };
}

const block = '# pkg\n\n<!-- figures: bench/scale.json#adds -->\n\n<!-- /figures -->\n';

describe('renderPlot', () => {
  const results = writeResults(join(mkdtempSync(join(tmpdir(), 'plots-')), 'r.json'), {
    command: 'pnpm bench -- --scale',
    tables: {},
    curves: { adds: curve },
  });
  const svg = renderPlot(results, 'adds');

  it('labels both axes, names each series in a legend and puts the run in a caption', () => {
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<title>Adds per second</title>');
    expect(svg).toContain('>workers (log scale)</text>');
    expect(svg).toContain('>adds/s</text>');
    expect(svg).toContain('>ctrlkit</text>');
    expect(svg).toContain('>client-go</text>');
    expect(svg).toContain('>pnpm bench -- --scale</text>');
    expect(svg).toContain(`>at ${results.commit} on ${results.date.slice(0, 10)}, load `);
    expect(svg).toContain('>Adds per second</text>');
  });

  it('draws a dot per point, a line per series and a bar only where the rounds spread', () => {
    expect(svg.match(/<circle /g)).toHaveLength(4 + 2);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    // Two spreads (ctrlkit at 1, client-go at 16), each a bar and two ticks.
    expect(
      svg.match(
        /<line x1="(\d+(\.\d)?)" y1="[\d.]+" x2="\1" y2="[\d.]+" stroke="#(1f77b4|ff7f0e)"\/>/g,
      ),
    ).toHaveLength(2);
  });

  it('puts a larger figure higher and ticks the sizes measured', () => {
    const dots = [
      ...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="3.5" fill="#1f77b4"\/>/g),
    ];
    expect(Number(dots[0][2])).toBeLessThan(Number(dots[1][2])); // 30 M above 25 M
    expect(Number(dots[0][1])).toBeLessThan(Number(dots[1][1])); // 1 worker left of 16
    expect(svg).toContain('>16</text>');
    expect(svg).toContain('>40M</text>');
  });

  it('extends the axis below zero when a spread goes there, so every bar stays in the frame', () => {
    const spread = { x: 1, y: 5, min: -33, max: 7 };
    const low = renderPlot(
      writeResults(join(mkdtempSync(join(tmpdir(), 'plots-')), 'r.json'), {
        command: 'pnpm bench -- --scale',
        tables: {},
        curves: { adds: { ...curve, series: [{ name: 'ctrlkit', points: [spread] }] } },
      }),
      'adds',
    );
    const frameBottom = Math.max(
      ...[
        ...low.matchAll(/<line x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="\1" stroke="#333"\/>/g),
      ].map((m) => Number(m[1])),
    );
    const bar = /<line x1="([\d.]+)" y1="([\d.]+)" x2="\1" y2="([\d.]+)" stroke="#1f77b4"\/>/.exec(
      low,
    );
    expect(bar).not.toBeNull();
    expect(Math.max(Number(bar?.[2]), Number(bar?.[3]))).toBeLessThanOrEqual(frameBottom);
    expect(low).toContain('>-40</text>');
    expect(low).toContain('>0</text>');
  });

  it('escapes text and renders the same SVG from the same results', () => {
    const odd = { ...curve, title: 'a < b & c' };
    const again = { ...results, curves: { adds: odd } };
    expect(renderPlot(again, 'adds')).toContain('a &lt; b &amp; c');
    expect(renderPlot(results, 'adds')).toBe(svg);
  });

  it('names the curves a results file has when asked for another', () => {
    expect(() => renderPlot(results, 'nope')).toThrow(/no curve "nope" \(it has: adds\)/);
  });
});

describe('writeResults with curves', () => {
  it('writes each curve as an SVG beside the results file', () => {
    const { svg } = tree(block);
    expect(svg).toMatch(/bench\/scale-adds\.svg$/);
    expect(readFileSync(svg, 'utf8')).toContain('<svg');
  });

  it('refuses a point without a finite figure, naming the curve, series and point', () => {
    const bad = { ...curve, series: [{ name: 'ours', points: [{ x: 1, y: Number.NaN }] }] };
    expect(() =>
      writeResults(join(tmpdir(), 'never.json'), { command: 'x', tables: {}, curves: { c: bad } }),
    ).toThrow(/curve "c" series "ours" point 0 needs finite x, y/);
  });

  it('refuses x <= 0 on a log scale and a name used by a table and a curve', () => {
    const zero = { ...curve, series: [{ name: 'ours', points: [{ x: 0, y: 1 }] }] };
    expect(() =>
      writeResults(join(tmpdir(), 'never.json'), { command: 'x', tables: {}, curves: { c: zero } }),
    ).toThrow(/point 0 has x <= 0 on a log scale/);
    const table = { columns: ['a'], rows: [] };
    expect(() =>
      writeResults(join(tmpdir(), 'never.json'), {
        command: 'x',
        tables: { c: table },
        curves: { c: curve },
      }),
    ).toThrow(/"c" names both a table and a curve/);
  });
});

describe('checkFigures with plots', () => {
  it('passes a block showing a curve whose SVG matches its results file', () => {
    const { root } = tree(block);
    expect(checkFigures(root, { write: true }).problems).toEqual([]);
    expect(readFileSync(join(root, 'pkg', 'README.md'), 'utf8')).toContain(
      '![Adds per second](bench/scale-adds.svg)',
    );
    expect(checkFigures(root)).toEqual({ blocks: 1, problems: [] });
  });

  it('fails on an SVG edited by hand, naming the file, line and plot', () => {
    const { root, svg } = tree(block);
    checkFigures(root, { write: true });
    writeFileSync(svg, readFileSync(svg, 'utf8').replace('>ctrlkit<', '>ours<'));
    expect(checkFigures(root).problems).toEqual([
      expect.stringMatching(
        /^pkg\/README\.md:3: the plot bench\/scale-adds\.svg differs from bench\/scale\.json#adds/,
      ),
    ]);
  });

  it('fails on a missing SVG, and --write draws it again', () => {
    const { root, svg } = tree(block);
    checkFigures(root, { write: true });
    rmSync(svg);
    expect(checkFigures(root).problems).toEqual([
      expect.stringMatching(/^pkg\/README\.md:3: the plot bench\/scale-adds\.svg is missing/),
    ]);
    expect(checkFigures(root, { write: true }).problems).toEqual([]);
    expect(existsSync(svg)).toBe(true);
    expect(checkFigures(root).problems).toEqual([]);
  });

  it('fails on a block whose image is not the one its curve renders', () => {
    const { root } = tree(block.replace('\n\n<!-- /', '\n![Adds](elsewhere.svg)\n<!-- /'));
    expect(checkFigures(root).problems).toEqual([
      expect.stringMatching(/^pkg\/README\.md:3: the image differs/),
    ]);
  });
});

describe('pointOf', () => {
  it('takes the median of the rounds and their lowest and highest', () => {
    expect(pointOf(10, [3, 1, 2])).toEqual({ x: 10, y: 2, min: 1, max: 3 });
    expect(pointOf(10, [4, 1, 2, 3])).toEqual({ x: 10, y: 2.5, min: 1, max: 4 });
  });

  it('refuses no rounds or a round that is not a number', () => {
    expect(() => pointOf(5, [])).toThrow(/the rounds at 5 must be finite numbers/);
    expect(() => pointOf(5, [1, Number.NaN])).toThrow(/the rounds at 5/);
  });
});

describe('renderPlot captions', () => {
  it('wraps a long caption into lines the width holds and grows the SVG to fit them', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const results = writeResults(join(mkdtempSync(join(tmpdir(), 'plots-')), 'r.json'), {
      command: 'pnpm bench',
      tables: {},
      curves: { adds: { ...curve, caption: words } },
    });
    const svg = renderPlot(results, 'adds');
    const lines = [...svg.matchAll(/fill="#555">([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(lines.join(' ')).toContain(words);
    const height = Number(/height="(\d+)" viewBox/.exec(svg)?.[1]);
    const lastY = Math.max(
      ...[...svg.matchAll(/y="([\d.]+)"[^>]*fill="#555"/g)].map((m) => Number(m[1])),
    );
    expect(lastY).toBeLessThan(height);
  });
});
