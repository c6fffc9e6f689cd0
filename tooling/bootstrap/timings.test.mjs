// Unit tests of the timings table (node --test): turbo's run summary, vitest's per-file times,
// the steps file, and the README block a run's summary goes into.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  formatTimings,
  packageTimes,
  parseSteps,
  readmeSummary,
  replaceBlock,
  slowFiles,
  turboSummariesSince,
} from './timings.mjs';

test('packageTimes reads each task of a turbo summary, slowest first', () => {
  const summary = {
    tasks: [
      {
        package: '@ctrlkit/core',
        task: 'test',
        execution: { startTime: 0, endTime: 2_000, exitCode: 0 },
      },
      {
        package: '@ctrlkit/runtime',
        task: 'test',
        execution: { startTime: 0, endTime: 540_000, exitCode: 1 },
      },
      { package: '@ctrlkit/tsconfig', task: 'test' },
    ],
  };
  assert.deepEqual(packageTimes(summary), [
    { package: '@ctrlkit/runtime', task: 'test', seconds: 540, exitCode: 1 },
    { package: '@ctrlkit/core', task: 'test', seconds: 2, exitCode: 0 },
  ]);
});

test('packageTimes merges the summaries of turbo runs that ran at once', () => {
  const task = (pkg, ms) => ({
    package: pkg,
    task: 'test',
    execution: { startTime: 0, endTime: ms, exitCode: 0 },
  });
  const faults = { tasks: [task('@ctrlkit/tests-faults', 400_000)] };
  const rest = { tasks: [task('@ctrlkit/core', 2_000), task('@ctrlkit/runtime', 250_000)] };
  assert.deepEqual(
    packageTimes([rest, faults]).map((p) => [p.package, p.seconds]),
    [
      ['@ctrlkit/tests-faults', 400],
      ['@ctrlkit/runtime', 250],
      ['@ctrlkit/core', 2],
    ],
  );
});

test('turboSummariesSince reads the summaries written since a time, oldest first', () => {
  const root = mkdtempSync(join(tmpdir(), 'timings-test-'));
  try {
    const runs = join(root, '.turbo', 'runs');
    mkdirSync(runs, { recursive: true });
    const write = (name, atSeconds) => {
      writeFileSync(join(runs, `${name}.json`), JSON.stringify({ id: name }));
      utimesSync(join(runs, `${name}.json`), atSeconds, atSeconds);
    };
    write('before', 1_000);
    write('second', 3_000);
    write('first', 2_000);
    writeFileSync(join(runs, 'notes.txt'), 'not a summary');
    assert.deepEqual(
      turboSummariesSince(1_500_000, root).map((s) => s.id),
      ['first', 'second'],
    );
    assert.deepEqual(turboSummariesSince(0, join(root, 'nowhere')), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('slowFiles keeps the files at or over the threshold, relative to the root', () => {
  const results = {
    testResults: [
      { name: '/r/packages/a/src/x.int.test.ts', startTime: 0, endTime: 31_000 },
      { name: '/r/packages/a/src/y.test.ts', startTime: 0, endTime: 29_999 },
    ],
  };
  assert.deepEqual(slowFiles(results, '/r', 30), [
    { file: 'packages/a/src/x.int.test.ts', seconds: 31 },
  ]);
});

test('the steps file and the table: a failed step says so', () => {
  const steps = parseSteps('lint\t12.5\tok\nbuild\t40.0\tfailed\n');
  const table = formatTimings({ steps, packages: [], files: [] });
  assert.deepEqual(table.slice(2), ['| lint | 12.5 s | ok |', '| build | 40.0 s | failed |']);
});

test('a run summary replaces only its own README block', () => {
  const readme = 'a\n<!-- ci-timings:warm -->\nold\n<!-- /ci-timings:warm -->\nb\n';
  const lines = readmeSummary(
    'warm',
    {
      steps: [
        { name: 'total (wall clock)', seconds: 1200.4 },
        { name: 'lint', seconds: 30 },
      ],
      packages: [],
      files: [],
    },
    '1.5 1.2 1.0',
  );
  const out = replaceBlock(readme, 'warm', lines);
  assert.match(out, /Binaries cached \(load 1\.5 1\.2 1\.0\): 1200 s in all\./);
  assert.match(out, /\| lint \| 30 s \|/);
  assert.ok(!out.includes('old'));
  assert.ok(out.startsWith('a\n') && out.endsWith('<!-- /ci-timings:warm -->\nb\n'));
  assert.throws(() => replaceBlock(readme, 'fresh', lines), /no <!-- ci-timings:fresh -->/);
});

test('the README summary lists the slowest files of every package, slowest first', () => {
  const files = [
    { file: 'packages/a/src/x.int.test.ts', seconds: 40 },
    { file: 'tests/faults/src/y.test.ts', seconds: 200 },
  ];
  const lines = readmeSummary('warm', { steps: [], packages: [], files }, '1 1 1');
  assert.deepEqual(
    lines.filter((l) => l.startsWith('| file:')),
    [
      '| file: tests/faults/src/y.test.ts | 200 s |',
      '| file: packages/a/src/x.int.test.ts | 40 s |',
    ],
  );
});
