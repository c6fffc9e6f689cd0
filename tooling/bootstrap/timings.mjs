// Where the time of a CI run goes: the steps `.ci/run` timed (steps.tsv: name, seconds,
// status), each package's test task (turbo's run summary) and each test file over a threshold
// (vitest's JSON results: first test start to last test end). Written as timings.md and
// timings.json into the output folder, and printed.
//
//   node tooling/bootstrap/timings.mjs report [folder]   (folder: default .ci/out)
//   node tooling/bootstrap/timings.mjs readme <fresh|warm> [folder]
//     writes that run's summary into README.md between <!-- ci-timings:<kind> --> markers
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The folder the timings are written to: CTRLKIT_TIMINGS_DIR, else `<repo>/.ci/out`. */
export function timingsDir(env = process.env) {
  return env.CTRLKIT_TIMINGS_DIR || join(repoRoot, '.ci', 'out');
}

/** Each package's test task from turbo's run summaries (one or several): package, seconds, exit code. */
export function packageTimes(summaries) {
  return [summaries]
    .flat()
    .flatMap((summary) => summary?.tasks ?? [])
    .filter((t) => t.execution?.startTime !== undefined && t.execution?.endTime !== undefined)
    .map((t) => ({
      package: t.package,
      task: t.task,
      seconds: (t.execution.endTime - t.execution.startTime) / 1000,
      exitCode: t.execution.exitCode,
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

/** Each test file of vitest's JSON results taking `minSeconds` or more, slowest first. */
export function slowFiles(results, root, minSeconds) {
  return (results?.testResults ?? [])
    .map((f) => ({ file: relative(root, f.name), seconds: (f.endTime - f.startTime) / 1000 }))
    .filter((f) => f.seconds >= minSeconds)
    .sort((a, b) => b.seconds - a.seconds);
}

/**
 * The run summaries turbo wrote (`--summarize`) under `<root>/.turbo/runs` since `sinceMs` (epoch
 * ms), oldest first: one per turbo run, and a test command may start several at once.
 */
export function turboSummariesSince(sinceMs, root = repoRoot) {
  const dir = join(root, '.turbo', 'runs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ path: join(dir, f), at: statSync(join(dir, f)).mtimeMs }))
    .filter((f) => f.at >= sinceMs)
    .sort((a, b) => a.at - b.at)
    .map((f) => JSON.parse(readFileSync(f.path, 'utf8')));
}

/** Parses steps.tsv (`name<TAB>seconds<TAB>status` lines). */
export function parseSteps(text) {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [name, seconds, status = 'ok'] = line.split('\t');
      return { name, seconds: Number(seconds), status };
    });
}

/** The markdown table of the steps, the package test tasks and the slow files. */
export function formatTimings({ steps, packages, files }) {
  const s = (n) => `${n.toFixed(1)} s`;
  const lines = ['| step | time | status |', '| --- | ---: | --- |'];
  for (const step of steps) lines.push(`| ${step.name} | ${s(step.seconds)} | ${step.status} |`);
  for (const p of packages) {
    lines.push(`| tests: ${p.package} | ${s(p.seconds)} | ${p.exitCode === 0 ? 'ok' : 'failed'} |`);
  }
  for (const f of files) lines.push(`| file: ${f.file} | ${s(f.seconds)} | |`);
  return lines;
}

/**
 * The README lines of one run (timings.json): its total, the set-up, the tests, the slowest
 * packages and files (of every package, slowest first); `kind` says which run it was (fresh machine or binaries cached).
 */
export function readmeSummary(kind, timings, load) {
  const s = (n) => `${Math.round(n)} s`;
  const total = timings.steps.find((t) => t.name.startsWith('total'));
  const lines = [
    `${kind === 'fresh' ? 'A fresh machine' : 'Binaries cached'} (load ${load}): ` +
      `${total ? s(total.seconds) : 'no total (the run stopped early)'} in all.`,
    '',
    '| step | time |',
    '| --- | ---: |',
    ...timings.steps.filter((t) => t !== total).map((t) => `| ${t.name} | ${s(t.seconds)} |`),
    ...timings.packages.slice(0, 8).map((p) => `| tests: ${p.package} | ${s(p.seconds)} |`),
    ...[...timings.files]
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 8)
      .map((f) => `| file: ${f.file} | ${s(f.seconds)} |`),
  ];
  return lines;
}

/** `readme` with the text between `<!-- ci-timings:<kind> -->` and its end marker replaced. */
export function replaceBlock(readme, kind, lines) {
  const start = `<!-- ci-timings:${kind} -->`;
  const end = `<!-- /ci-timings:${kind} -->`;
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md has no ${start} … ${end} block`);
  return `${readme.slice(0, from + start.length)}\n${lines.join('\n')}\n${readme.slice(to)}`;
}

function writeReadme(kind, dir) {
  if (kind !== 'fresh' && kind !== 'warm') {
    throw new Error(`readme: the run's kind must be fresh or warm, got ${JSON.stringify(kind)}`);
  }
  const timings = JSON.parse(readFileSync(join(dir, 'timings.json'), 'utf8'));
  const readmePath = join(repoRoot, 'README.md');
  const lines = readmeSummary(kind, timings, timings.load ?? 'not recorded');
  writeFileSync(readmePath, replaceBlock(readFileSync(readmePath, 'utf8'), kind, lines));
}

function report(dir) {
  const stepsFile = join(dir, 'steps.tsv');
  const steps = existsSync(stepsFile) ? parseSteps(readFileSync(stepsFile, 'utf8')) : [];
  const testsFile = join(dir, 'tests.json');
  const tests = existsSync(testsFile)
    ? JSON.parse(readFileSync(testsFile, 'utf8'))
    : { packages: [], files: [] };
  const lines = formatTimings({ steps, packages: tests.packages, files: tests.files });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'timings.md'), `${lines.join('\n')}\n`);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  writeFileSync(
    join(dir, 'timings.json'),
    `${JSON.stringify({ steps, ...tests, load, cpus: availableParallelism() }, null, 2)}\n`,
  );
  console.log(`\nWhere the time went (${relative(process.cwd(), join(dir, 'timings.md'))}):`);
  console.log(lines.join('\n'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'report') report(resolve(args[0] ?? timingsDir()));
  else if (command === 'readme') writeReadme(args[0], resolve(args[1] ?? timingsDir()));
  else {
    console.error(
      `usage: timings.mjs report [folder] | readme <fresh|warm> [folder] (got ${JSON.stringify(command)})`,
    );
    process.exit(2);
  }
}
