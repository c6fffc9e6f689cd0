// The totals of a test run, from each package's vitest JSON results (.vitest/results.json).
//
// A file that failed without a failed test (an error in beforeAll, an import, a worker crash)
// failed in its set-up: it is named, and each of its tests that did not pass counts as failed.
// A test counts as skipped only with a reason a reader can see: `meta.skipReason`, or
// "(skipped: <reason>)" in its name or a suite's name; a skip without one counts as failed.
import { relative } from 'node:path';

const FAILURE_LINES = 6;
const REASON_IN_NAME = /\(skipped: ([^)]+)\)/;

/**
 * Adds up the results of every package.
 * @param {{ package: string, results: object | undefined }[]} runs one per package; `results`
 *   is its parsed results.json, undefined when the package wrote none
 * @param {string} root paths are printed relative to it
 */
export function totals(runs, root) {
  const sum = { passed: 0, failed: 0, skipped: 0, setupFailures: [], skips: [], failures: [] };
  for (const run of runs) {
    if (run.results === undefined) {
      sum.setupFailures.push({ file: run.package, message: 'wrote no test results', tests: 0 });
      continue;
    }
    for (const file of run.results.testResults) addFile(sum, file, relative(root, file.name));
  }
  return sum;
}

function addFile(sum, file, name) {
  const tests = file.assertionResults;
  const setupFailed = file.status === 'failed' && !tests.some((t) => t.status === 'failed');
  if (setupFailed) {
    const notPassed = tests.filter((t) => t.status !== 'passed').length;
    sum.passed += tests.length - notPassed;
    sum.failed += notPassed;
    sum.setupFailures.push({ file: name, message: firstLine(file.message), tests: notPassed });
    return;
  }
  for (const test of tests) {
    if (test.status === 'passed') sum.passed += 1;
    else if (test.status === 'failed') {
      sum.failed += 1;
      sum.failures.push({ file: name, test: test.fullName, message: failureLines(test) });
    } else {
      const reason = skipReason(test);
      if (reason === undefined) {
        sum.failed += 1;
        sum.failures.push({
          file: name,
          test: `${test.fullName} (${test.status} without a reason)`,
        });
      } else {
        sum.skipped += 1;
        sum.skips.push({ file: name, test: test.fullName, reason });
      }
    }
  }
}

/** The reason a test was skipped, or undefined when it gives none. */
export function skipReason(test) {
  const fromMeta = test.meta?.skipReason;
  if (typeof fromMeta === 'string' && fromMeta.trim() !== '') return fromMeta.trim();
  return REASON_IN_NAME.exec(test.fullName ?? '')?.[1]?.trim();
}

/** The lines to print: set-up failures, failed tests, skipped tests with reasons, the totals. */
export function formatTotals(sum) {
  const count = (n) => n.toLocaleString('en-US');
  const lines = [];
  if (sum.setupFailures.length > 0) {
    lines.push('', 'Failed in their set-up (their tests that did not pass count as failed):');
    for (const f of sum.setupFailures) {
      lines.push(`  ✘ ${f.file} (${f.tests} tests): ${f.message || 'no message'}`);
    }
  }
  if (sum.failures.length > 0) {
    lines.push('', 'Failed:');
    for (const f of sum.failures) {
      lines.push(`  ✘ ${f.file} › ${f.test}`);
      for (const line of f.message ?? []) lines.push(`      ${line}`);
    }
  }
  if (sum.skips.length > 0) {
    lines.push('', 'Skipped:');
    for (const s of sum.skips) lines.push(`  - ${s.file} › ${s.test}: ${s.reason}`);
  }
  lines.push(
    '',
    `${count(sum.passed)} passed, ${count(sum.failed)} failed, ${count(sum.skipped)} skipped`,
  );
  return lines;
}

/** The first lines of a failed test's first message (the assertion and where it failed). */
function failureLines(test) {
  const text = test.failureMessages?.[0] ?? '';
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .slice(0, FAILURE_LINES);
}

function firstLine(text) {
  return (text ?? '').split('\n')[0].trim();
}
