//! Runs `go build` of one control plane binary, with a progress line at least every 15 s.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '@ctrlkit/core';
import { BinariesMissingError } from '../errors/binaries-missing-error.js';
import { BuildFailedError } from '../errors/build-failed-error.js';
import { KUBERNETES_VERSION } from '../versions.js';
import { formatDuration } from './format.js';

const execFileAsync = promisify(execFile);

/** How often, at most, a build reports progress, in ms. */
const PROGRESS_EVERY_MS = 15_000;

/** The go build of one binary. */
export interface GoBuildTarget {
  readonly binary: string;
  /** The folder under `go/` holding its go.mod and go.sum. */
  readonly module: string;
  /** The main package. */
  readonly pkg: string;
  /** The module whose publication time stamps the binary. */
  readonly stampModule: string;
  readonly ldflags: (moduleTime: string) => string;
}

/** Where a build writes and how it reports. */
export interface GoBuildContext {
  readonly logger: Logger;
  readonly buildJobs: number;
  readonly env: NodeJS.ProcessEnv;
  readonly log: NodeJS.WritableStream;
  readonly logPath: string;
}

/** `-ldflags` that stamp the Kubernetes version (as `kubectl version` and `--version` show it). */
export function kubernetesLdflags(moduleTime: string): string {
  const [major, minor] = KUBERNETES_VERSION.split('.');
  const v = 'k8s.io/component-base/version';
  return [
    '-s -w',
    `-X ${v}.gitVersion=v${KUBERNETES_VERSION}`,
    `-X ${v}.gitMajor=${major}`,
    `-X ${v}.gitMinor=${minor}`,
    `-X ${v}.gitTreeState=archive`,
    `-X ${v}.buildDate=${moduleTime}`,
  ].join(' ');
}

/**
 * Checks that `go` runs and returns its version (`go1.26.8`); else throws
 * `BinariesMissingError` naming `binaries` and the places already `searched`.
 */
export async function findGo(
  env: NodeJS.ProcessEnv,
  binaries: readonly string[],
  searched: readonly string[],
): Promise<string> {
  try {
    const { stdout } = await execFileAsync('go', ['env', 'GOVERSION'], { env: goEnv(env) });
    return stdout.trim();
  } catch (error) {
    const what = binaries.join(' and ');
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT'
        ? `${what} ${binaries.length > 1 ? 'are' : 'is'} not cached and Go is not installed (no \`go\` on PATH)`
        : `${what} ${binaries.length > 1 ? 'are' : 'is'} not cached and \`go env\` failed: ${(error as Error).message.trim()}`;
    throw new BinariesMissingError(problem, [...searched, 'go on PATH'], binaries);
  }
}

/**
 * The build environment: `CGO_ENABLED=0`, `-mod=readonly`, `GOTOOLCHAIN=local` (unless set)
 * and no workspace, so nothing but Go module sources is downloaded.
 */
export function goEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    CGO_ENABLED: '0',
    GOFLAGS: '-mod=readonly -buildvcs=false',
    GOTOOLCHAIN: env.GOTOOLCHAIN || 'local',
    GOWORK: 'off',
  };
}

/**
 * Copies the go.mod and go.sum of `<modulesDirectory>/<module>` into `<work>/<module>` (so a
 * read-only package folder builds too) and returns that folder.
 */
export async function copyGoModule(
  modulesDirectory: string,
  module: string,
  work: string,
): Promise<string> {
  const moduleDir = join(work, module);
  await mkdir(moduleDir, { recursive: true });
  for (const file of ['go.mod', 'go.sum']) {
    await copyFile(join(modulesDirectory, module, file), join(moduleDir, file));
  }
  return moduleDir;
}

/**
 * Builds `target` from `moduleDir` into `output` with `-trimpath`, logging to `context.log`
 * and reporting the packages compiled so far at least every 15 s.
 * Errors: `BuildFailedError` with the last lines of go's output.
 */
export async function goBuild(
  target: GoBuildTarget,
  moduleDir: string,
  output: string,
  context: GoBuildContext,
): Promise<void> {
  const { logger, log, logPath } = context;
  const env = goEnv(context.env);
  const started = performance.now();
  logger.info({}, `${target.binary}: resolving Go modules (downloads sources on the first run)`);
  const list = await runGo(['list', '-deps', target.pkg], moduleDir, env, log);
  if (list.code !== 0) {
    throw new BuildFailedError(
      target.binary,
      `go list exited with ${list.code}`,
      logPath,
      list.tail,
    );
  }
  const total = list.stdout.split('\n').filter(Boolean).length;
  const moduleTime = await moduleTimestamp(target.stampModule, moduleDir, env);
  const args = [
    'build',
    '-v',
    '-trimpath',
    `-p=${context.buildJobs}`,
    '-ldflags',
    target.ldflags(moduleTime),
    '-o',
    output,
    target.pkg,
  ];
  log.write(`\n$ go ${args.join(' ')}\n`);
  let compiled = 0;
  let lastReport = started;
  const ticker = setInterval(() => {
    if (performance.now() - lastReport < PROGRESS_EVERY_MS) return;
    lastReport = performance.now();
    const pct = total > 0 ? Math.min(99, Math.floor((compiled / total) * 100)) : 0;
    logger.info(
      {},
      `${target.binary}: compiled ${compiled} of up to ${total} packages (${pct}%), ${formatDuration(performance.now() - started)}`,
    );
  }, 1_000);
  try {
    const build = await runGo(args, moduleDir, env, log, (line) => {
      if (!line.startsWith('go: ') && !line.startsWith('#')) compiled++;
    });
    if (build.code !== 0) {
      throw new BuildFailedError(
        target.binary,
        `go build exited with ${build.code}`,
        logPath,
        build.tail,
      );
    }
  } finally {
    clearInterval(ticker);
  }
  logger.info(
    {},
    `${target.binary}: built in ${formatDuration(performance.now() - started)} (${compiled} packages compiled)`,
  );
}

async function moduleTimestamp(
  modulePath: string,
  moduleDir: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  try {
    const { stdout } = await execFileAsync('go', ['list', '-m', '-json', modulePath], {
      cwd: moduleDir,
      env,
    });
    const time = (JSON.parse(stdout) as { Time?: string }).Time;
    if (time) return new Date(time).toISOString().replace(/\.\d+Z$/, 'Z');
  } catch {
    // The date is cosmetic (`kube-apiserver --version` does not show it); fall through.
  }
  return '1970-01-01T00:00:00Z';
}

interface GoResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly tail: readonly string[];
}

/** Runs `go`, copying its output to `log`, keeping stdout and the last stderr lines. */
function runGo(
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  log: NodeJS.WritableStream,
  onLine: (line: string) => void = () => {},
): Promise<GoResult> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn('go', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const tail: string[] = [];
    let partial = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      log.write(chunk);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        onLine(line);
        tail.push(line);
        if (tail.length > 30) tail.shift();
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (partial) tail.push(partial);
      resolve({ code, stdout, tail });
    });
  });
}
