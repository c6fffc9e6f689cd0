//! Builds kube-apiserver and etcd from the Go modules this package ships, once per machine.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BinariesMissingError } from './errors/binaries-missing-error.js';
import { BuildFailedError } from './errors/build-failed-error.js';
import { formatDuration } from './internal/format.js';
import { withFileLock } from './internal/lock.js';
import type { ResolvedBinaryOptions } from './options.js';
import { ETCD_VERSION, KUBERNETES_VERSION } from './versions.js';

const execFileAsync = promisify(execFile);

/** The folder holding `kube-apiserver/go.mod` and `etcd/go.mod`, shipped in the package. */
export const GO_MODULES_DIRECTORY = fileURLToPath(new URL('../go/', import.meta.url));

/** What a finished build wrote next to the binaries (`build.json`). */
export interface BuildRecord {
  readonly kubernetesVersion: string;
  readonly etcdVersion: string;
  readonly goVersion: string;
  readonly builtAt: string;
  readonly buildMs: number;
}

/** The go build of one binary. */
interface BuildTarget {
  readonly binary: 'etcd' | 'kube-apiserver';
  readonly module: string;
  readonly pkg: string;
  readonly ldflags: (moduleTime: string) => string;
}

const targets: readonly BuildTarget[] = [
  {
    binary: 'etcd',
    module: 'etcd',
    pkg: 'go.etcd.io/etcd/server/v3',
    ldflags: () => '-s -w',
  },
  {
    binary: 'kube-apiserver',
    module: 'kube-apiserver',
    pkg: 'k8s.io/kubernetes/cmd/kube-apiserver',
    ldflags: (moduleTime) => {
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
    },
  },
];

/** The cache folder of this package's binary versions: `<cacheDirectory>/v<kubernetes>`. */
export function versionedCacheDirectory(cacheDirectory: string): string {
  return join(cacheDirectory, `v${KUBERNETES_VERSION}`);
}

/**
 * Builds `etcd` and `kube-apiserver` into the versioned cache folder and returns it.
 *
 * Holds `<cacheDirectory>/v<version>.lock` meanwhile: a second process waits and then
 * uses what the first built (`isCached` is asked again under the lock). The Go modules
 * are copied to a temporary folder first, so a read-only package folder builds too.
 * Builds with `-trimpath`, `CGO_ENABLED=0`, `-mod=readonly` and `GOTOOLCHAIN=local`
 * (unless set), so the result does not depend on the checkout's path and nothing but
 * Go module sources is downloaded.
 */
export async function buildBinaries(
  options: ResolvedBinaryOptions,
  isCached: () => Promise<boolean>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const { logger, cacheDirectory } = options;
  const target = versionedCacheDirectory(cacheDirectory);
  const goVersion = await findGo(env, target);
  await mkdir(cacheDirectory, { recursive: true });
  return withFileLock(
    `${target}.lock`,
    async () => {
      if (await isCached()) return target;
      logger.info(
        {},
        `building kube-apiserver v${KUBERNETES_VERSION} and etcd v${ETCD_VERSION} with ${goVersion} ` +
          `into ${target} (once per machine; about 8 minutes on 2 cores with an empty Go cache)`,
      );
      const started = performance.now();
      const staging = `${target}.partial-${process.pid}`;
      const work = await mkdtemp(join(tmpdir(), 'ctrlkit-envtest-build-'));
      const logPath = join(cacheDirectory, `build-v${KUBERNETES_VERSION}.log`);
      const log = createWriteStream(logPath);
      try {
        await rm(staging, { recursive: true, force: true });
        await mkdir(staging, { recursive: true });
        for (const t of targets) {
          const moduleDir = join(work, t.module);
          await mkdir(moduleDir);
          for (const file of ['go.mod', 'go.sum']) {
            await copyFile(join(GO_MODULES_DIRECTORY, t.module, file), join(moduleDir, file));
          }
          await buildOne(
            t,
            moduleDir,
            join(staging, t.binary),
            options,
            buildEnv(env),
            log,
            logPath,
          );
        }
        const record: BuildRecord = {
          kubernetesVersion: KUBERNETES_VERSION,
          etcdVersion: ETCD_VERSION,
          goVersion,
          builtAt: new Date().toISOString(),
          buildMs: Math.round(performance.now() - started),
        };
        await writeFile(join(staging, 'build.json'), `${JSON.stringify(record, null, 2)}\n`);
        await rm(target, { recursive: true, force: true });
        await rename(staging, target);
        logger.info(
          {},
          `built kube-apiserver and etcd in ${formatDuration(record.buildMs)} into ${target}`,
        );
        return target;
      } finally {
        await new Promise((resolve) => log.end(resolve));
        await rm(work, { recursive: true, force: true });
        await rm(staging, { recursive: true, force: true });
      }
    },
    (holder, waitedMs) =>
      logger.info(
        {},
        `waiting for the build by process ${holder?.pid ?? '?'} to finish (${formatDuration(waitedMs)} so far)`,
      ),
  );
}

/** Checks that `go` runs and returns its version (`go1.26.8`). */
async function findGo(env: NodeJS.ProcessEnv, target: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync('go', ['env', 'GOVERSION'], { env: buildEnv(env) });
    return stdout.trim();
  } catch (error) {
    const searched = [
      'the binaryAssetsDirectory option',
      'KUBEBUILDER_ASSETS (not set)',
      `the cache ${target} (empty)`,
      'go on PATH',
    ];
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT'
        ? 'kube-apiserver and etcd are not cached and Go is not installed (no `go` on PATH)'
        : `kube-apiserver and etcd are not cached and \`go env\` failed: ${(error as Error).message.trim()}`;
    throw new BinariesMissingError(problem, searched);
  }
}

function buildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    CGO_ENABLED: '0',
    GOFLAGS: '-mod=readonly -buildvcs=false',
    GOTOOLCHAIN: env.GOTOOLCHAIN || 'local',
    GOWORK: 'off',
  };
}

async function buildOne(
  t: BuildTarget,
  moduleDir: string,
  output: string,
  options: ResolvedBinaryOptions,
  env: NodeJS.ProcessEnv,
  log: NodeJS.WritableStream,
  logPath: string,
): Promise<void> {
  const { logger } = options;
  const started = performance.now();
  logger.info({}, `${t.binary}: resolving Go modules (downloads sources on the first run)`);
  const list = await runGo(['list', '-deps', t.pkg], moduleDir, env, log);
  if (list.code !== 0) {
    throw new BuildFailedError(t.binary, `go list exited with ${list.code}`, logPath, list.tail);
  }
  const total = list.stdout.split('\n').filter(Boolean).length;
  const moduleTime = await moduleTimestamp(t, moduleDir, env);
  const args = [
    'build',
    '-v',
    '-trimpath',
    `-p=${options.buildJobs}`,
    '-ldflags',
    t.ldflags(moduleTime),
    '-o',
    output,
    t.pkg,
  ];
  log.write(`\n$ go ${args.join(' ')}\n`);
  let compiled = 0;
  let lastReport = started;
  const report = () => {
    const pct = total > 0 ? Math.min(99, Math.floor((compiled / total) * 100)) : 0;
    logger.info(
      {},
      `${t.binary}: compiled ${compiled} of up to ${total} packages (${pct}%), ${formatDuration(performance.now() - started)}`,
    );
  };
  const ticker = setInterval(() => {
    if (performance.now() - lastReport >= 15_000) {
      lastReport = performance.now();
      report();
    }
  }, 1_000);
  try {
    const build = await runGo(args, moduleDir, env, log, (line) => {
      if (!line.startsWith('go: ') && !line.startsWith('#')) compiled++;
    });
    if (build.code !== 0) {
      throw new BuildFailedError(
        t.binary,
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
    `${t.binary}: built in ${formatDuration(performance.now() - started)} (${compiled} packages compiled)`,
  );
}

async function moduleTimestamp(
  t: BuildTarget,
  moduleDir: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const modulePath = t.binary === 'etcd' ? 'go.etcd.io/etcd/server/v3' : 'k8s.io/kubernetes';
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
