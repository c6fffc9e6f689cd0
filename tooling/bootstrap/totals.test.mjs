// Unit tests of the totals line (node --test tooling/bootstrap): fed vitest 4's JSON results of
// a run where a file failed in beforeAll and tests were skipped with and without a reason
// (fixtures/results-setup-failure.json, written by vitest from such files).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { formatTotals, skipReason, totals } from './totals.mjs';

const results = JSON.parse(
  readFileSync(new URL('./fixtures/results-setup-failure.json', import.meta.url), 'utf8'),
);
const sum = totals([{ package: 'packages/example', results }], '/repo');

test('a file that fails in beforeAll is failed, named, and its tests count as failed', () => {
  assert.deepEqual(sum.setupFailures, [
    {
      file: 'packages/example/src/interop.int.test.ts',
      message: 'the Go program leaderelection is not built: run `pnpm setup:go`',
      tests: 2,
    },
  ]);
});

test('skipped counts only tests with a reason; a skip without one counts as failed', () => {
  assert.deepEqual(
    sum.skips.map((s) => s.reason),
    ['waits for kube-scheduler v1.36', 'needs darwin', 'no helm on PATH'],
  );
  assert.deepEqual(
    sum.failures.map((f) => f.test),
    ['ok fails', 'ok no reason given (skipped without a reason)'],
  );
  assert.deepEqual([sum.passed, sum.failed, sum.skipped], [1, 4, 3]);
});

test('the totals line matches the run: failed > 0 where vitest reported a failure', () => {
  const lines = formatTotals(sum);
  assert.equal(lines.at(-1), '1 passed, 4 failed, 3 skipped');
  assert.ok(lines.some((l) => l.includes('✘ packages/example/src/interop.int.test.ts (2 tests)')));
  assert.ok(lines.some((l) => l.includes('ok with meta: needs darwin')));
});

test("a failed test's message is printed under its name, so a CI record shows why", () => {
  const lines = formatTotals(sum);
  const at = lines.findIndex((l) => l.endsWith('› ok fails'));
  assert.equal(lines[at + 1], '      AssertionError: expected 1 to be 2 // Object.is equality');
});

test('a package that wrote no results is a set-up failure', () => {
  const none = totals([{ package: 'packages/broken', results: undefined }], '/repo');
  assert.equal(none.setupFailures[0]?.file, 'packages/broken');
  assert.match(
    formatTotals(none).join('\n'),
    /packages\/broken \(0 tests\): wrote no test results/,
  );
});

test('skipReason reads meta.skipReason first, then "(skipped: …)" in the name', () => {
  assert.equal(skipReason({ fullName: 'x (skipped: a)', meta: { skipReason: 'b' } }), 'b');
  assert.equal(skipReason({ fullName: 'x (skipped: a)', meta: {} }), 'a');
  assert.equal(skipReason({ fullName: 'x', meta: { skipReason: '  ' } }), undefined);
});
