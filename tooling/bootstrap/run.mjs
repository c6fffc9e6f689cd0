#!/usr/bin/env node
// Sets up the pinned toolchain (Node, pnpm), the dependencies and the control plane
// binaries, then runs the main job (`start`) or the tests (`test`) under that toolchain.
//
// Runs on any Node >= 18 (a fresh machine has Node 20 and npm): the pinned Node and pnpm
// come from the npm registry's `node` and `pnpm` packages, installed once into a cache
// outside the repository. Every step is idempotent and quick the second time.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  formatTimings,
  packageTimes,
  slowFiles,
  timingsDir,
  turboSummariesSince,
} from './timings.mjs';
import { formatTotals, totals } from './totals.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const nodeVersion = manifest.devEngines.runtime.version;
const pnpmVersion = manifest.packageManager.replace(/^pnpm@/, '');

/**
 * The packages whose tests run in a stream of their own, beside the others: the fault suite,
 * whose files run side by side (three at a time, each with its control plane) and mostly wait.
 */
const OWN_STREAM = ['@ctrlkit/tests-faults'];
/**
 * How many of the other packages' test tasks run at once: their integration files share one
 * control plane per package (plus their own side-by-side ones), and mostly wait on it.
 */
const TEST_CONCURRENCY = 2;

/** The commands this bootstrap knows, and what each runs once the toolchain is ready. */
const jobs = {
  start: {
    controlPlane: true,
    run: () => {
      step('build', () =>
        run(pnpm, [
          'exec',
          'turbo',
          'run',
          'build',
          '--filter=@ctrlkit/demo...',
          '--output-logs=errors-only',
        ]),
      );
      run(pnpm, [
        'run',
        '--silent',
        '--filter',
        '@ctrlkit/demo',
        'start',
        ...process.argv.slice(3),
      ]);
    },
  },
  test: { controlPlane: true, goPrograms: true, run: runTests },
  // The set-up alone (binaries, Helm, Go test programs), which .ci/run starts in the background
  // at its beginning; it expects the dependencies installed and @ctrlkit/envtest built.
  setup: { controlPlane: true, goPrograms: true, prepared: true, run: () => {} },
  // The pinned toolchain's bin folder, for a script that runs pnpm itself after one bootstrap.
  'toolchain-bin': { prepared: true, run: () => console.log(binDir) },
  pnpm: { controlPlane: false, run: () => run(pnpm, process.argv.slice(3)) },
};

const job = jobs[process.argv[2]];
if (job === undefined) {
  console.error(
    `usage: run.mjs start | test | setup | toolchain-bin | pnpm <args...> (got ${JSON.stringify(process.argv[2])})`,
  );
  process.exit(2);
}

const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
const toolchainDir = join(
  cacheHome,
  'ctrlkit',
  'toolchain',
  `node-${nodeVersion}-pnpm-${pnpmVersion}`,
);
const binDir = join(toolchainDir, 'node_modules', '.bin');
const pnpm = join(binDir, 'pnpm');

try {
  ensureToolchain();
  process.env.PATH = `${binDir}${delimiter}${process.env.PATH}`;
  process.env.TURBO_TELEMETRY_DISABLED = '1';
  process.env.DO_NOT_TRACK = '1';
  if (!job.prepared) {
    step('dependencies', () => run(pnpm, ['install', '--frozen-lockfile', '--prefer-offline']));
  }
  if (job.controlPlane && existsSync(join(repoRoot, 'packages', 'envtest', 'package.json'))) {
    step('control plane binaries', () => {
      if (!job.prepared) {
        run(pnpm, [
          'exec',
          'turbo',
          'run',
          'build',
          '--filter=@ctrlkit/envtest',
          '--output-logs=errors-only',
        ]);
      }
      run(join(binDir, 'node'), [
        join(repoRoot, 'packages', 'envtest', 'dist', 'cli.js'),
        'setup',
        '--components',
        'all',
      ]);
    });
    step("helm (the apps' chart tests)", ensureHelm);
  }
  if (job.goPrograms) {
    // The Go programs the interop tests run beside ours: built here, once, never in a test.
    step('Go test programs (tooling/go-interop)', () =>
      run(join(binDir, 'node'), [join(repoRoot, 'tooling', 'go-interop', 'build.mjs'), '--tests']),
    );
  }
  await job.run();
} catch (error) {
  console.error(`\n✘ ${error.message}`);
  process.exitCode = error.exitCode ?? 1;
}

/**
 * Runs every package's tests, then prints where the time went (each package, each file of 30 s
 * or more; also written to tests.json in the timings folder) and the totals (totals.mjs).
 * Everything is built first; then the fault suite and the other packages (two at a time) run
 * as two turbo runs at once (`--only`: neither rebuilds what the other may be reading).
 */
async function runTests() {
  const packages = ['packages', 'apps', 'examples', 'tests', 'tooling'].flatMap((group) => {
    const dir = join(repoRoot, group);
    if (!existsSync(dir)) return [];
    // Each package's folder with tests (a README beside them is not one).
    return readdirSync(dir, { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'vitest.config.ts')),
      )
      .map((entry) => join(dir, entry.name));
  });
  const resultsOf = (dir) => join(dir, '.vitest', 'results.json');
  for (const dir of packages) rmSync(resultsOf(dir), { force: true });
  run(pnpm, ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
  const startedAt = Date.now();
  const test = ['exec', 'turbo', 'run', 'test', '--only', '--continue', '--summarize'];
  const own = runAsync(pnpm, [...test, ...OWN_STREAM.map((p) => `--filter=${p}`)]);
  const failures = [];
  try {
    run(pnpm, [
      ...test,
      `--concurrency=${TEST_CONCURRENCY}`,
      ...OWN_STREAM.map((p) => `--filter=!${p}`),
    ]);
  } catch (error) {
    failures.push(error);
  }
  await own.catch((error) => failures.push(error));
  const runs = packages.map((dir) => ({
    package: relative(repoRoot, dir),
    results: existsSync(resultsOf(dir))
      ? JSON.parse(readFileSync(resultsOf(dir), 'utf8'))
      : undefined,
  }));
  const times = {
    packages: packageTimes(turboSummariesSince(startedAt, repoRoot)),
    files: runs.flatMap((r) => slowFiles(r.results, repoRoot, 30)),
  };
  const out = timingsDir();
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'tests.json'), `${JSON.stringify(times, null, 2)}\n`);
  console.log(`\n${formatTimings({ steps: [], ...times }).join('\n')}`);
  const sum = totals(runs, repoRoot);
  console.log(formatTotals(sum).join('\n'));
  if (failures.length > 0) throw failures[0];
  if (sum.failed > 0 || sum.setupFailures.length > 0) {
    throw Object.assign(new Error(`${sum.failed} tests failed`), { exitCode: 1 });
  }
}

/**
 * Builds the pinned Helm (tooling/bootstrap/helm.json) from the Go module proxy into
 * `<cache>/ctrlkit/helm/v<version>/helm` unless it is there: `go install` into a temporary
 * folder, renamed into place, so an interrupted build leaves nothing. The apps' chart tests
 * look for it there (tooling/app-testing, findHelm).
 */
function ensureHelm() {
  const pin = JSON.parse(readFileSync(join(repoRoot, 'tooling', 'bootstrap', 'helm.json'), 'utf8'));
  const target = join(cacheHome, 'ctrlkit', 'helm', `v${pin.version}`);
  if (existsSync(join(target, 'helm'))) return;
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const started = Date.now();
  console.log(
    `building Helm v${pin.version} from the Go modules (once per machine, a few minutes)`,
  );
  try {
    execFileSync(
      'go',
      [
        'install',
        '-trimpath',
        // The version stamped as Helm's own release builds do (`helm version`: v3.22.0).
        `-ldflags=-s -w -X helm.sh/helm/v3/internal/version.version=v${pin.version}`,
        `${pin.package}@v${pin.version}`,
      ],
      {
        stdio: 'inherit',
        env: {
          ...process.env,
          GOBIN: partial,
          GOFLAGS: '-mod=mod',
          CGO_ENABLED: '0',
          GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local',
        },
      },
    );
    rmSync(target, { recursive: true, force: true });
    renameSync(partial, target);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  console.log(`built Helm v${pin.version} in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Installs the pinned Node and pnpm into the cache unless they are already there. */
function ensureToolchain() {
  if (existsSync(pnpm) && readVersion(join(binDir, 'node')) === `v${nodeVersion}`) return;
  step(
    `toolchain: node ${nodeVersion} and pnpm ${pnpmVersion} into ${toolchainDir}`,
    () => {
      const staging = `${toolchainDir}.partial-${process.pid}`;
      mkdirSync(staging, { recursive: true });
      const installed = spawnSync(
        'npm',
        [
          'install',
          '--prefix',
          staging,
          '--no-save',
          '--no-package-lock',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          `node@${nodeVersion}`,
          `pnpm@${pnpmVersion}`,
        ],
        { stdio: 'inherit' },
      );
      if (installed.status !== 0) {
        rmSync(staging, { recursive: true, force: true });
        throw new Error(`npm could not install node@${nodeVersion} and pnpm@${pnpmVersion}`);
      }
      const got = readVersion(join(staging, 'node_modules', '.bin', 'node'));
      if (got !== `v${nodeVersion}`) {
        throw new Error(`the installed node reports ${got}, expected v${nodeVersion}`);
      }
      rmSync(toolchainDir, { recursive: true, force: true });
      renameSync(staging, toolchainDir);
    },
    'toolchain',
  );
}

function readVersion(nodeBinary) {
  if (!existsSync(nodeBinary)) return undefined;
  try {
    return execFileSync(nodeBinary, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Runs one timed step; with CTRLKIT_STEPS_FILE set (by .ci/run), appends `name, seconds,
 * status` to it for the timings table (timings.mjs).
 */
function step(title, fn, name = title) {
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  const record = (status) => {
    const file = process.env.CTRLKIT_STEPS_FILE;
    if (file) appendFileSync(file, `${name}\t${seconds()}\t${status}\n`);
  };
  console.log(`\n▶ ${title}`);
  try {
    fn();
  } catch (error) {
    record('failed');
    throw error;
  }
  record('ok');
  console.log(`✔ ${title} (${seconds()} s)`);
}

/** `run` without waiting: resolves when the command exits 0, rejects otherwise. */
function runAsync(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit', env: process.env });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve(0);
      const error = new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}`);
      error.exitCode = code ?? 1;
      reject(error);
    });
  });
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env: process.env });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    const error = new Error(
      `${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`,
    );
    error.exitCode = result.status ?? 1;
    throw error;
  }
  return 0;
}
