// The Go programs that tests and benches run beside ours (tooling/go-interop/*: client-go
// interop in integration tests; tooling/go-bench/*: the benches' Go columns). They are built
// once, in the set-up (`pnpm setup:go`), into a cache outside the repository, never inside a
// test: a test only finds the binary (`goProgram`), and fails naming the set-up command when it
// is missing.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const tooling = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The command that builds every Go program (or the named ones) into the cache. */
export const SETUP_COMMAND = 'pnpm setup:go';

/** Each program: its name (the folder under tooling/go-interop or tooling/go-bench) and kind. */
export const GO_PROGRAMS = Object.freeze([
  { name: 'leaderelection', dir: join(tooling, 'go-interop', 'leaderelection'), kind: 'test' },
  {
    name: 'dra-resourceslice-interop',
    dir: join(tooling, 'go-interop', 'dra-resourceslice'),
    kind: 'test',
  },
  { name: 'bench-informer', dir: join(tooling, 'go-bench', 'informer'), kind: 'bench' },
  { name: 'bench-workqueue', dir: join(tooling, 'go-bench', 'workqueue'), kind: 'bench' },
  {
    name: 'bench-dra-resourceslice',
    dir: join(tooling, 'go-bench', 'dra-resourceslice'),
    kind: 'bench',
  },
  {
    name: 'bench-virtual-kubelet',
    dir: join(tooling, 'go-bench', 'virtual-kubelet'),
    kind: 'bench',
  },
  { name: 'bench-webhook', dir: join(tooling, 'go-bench', 'webhook'), kind: 'bench' },
]);

/** `<XDG_CACHE_HOME or ~/.cache>/ctrlkit/go-programs`: where the built programs live. */
export function goProgramsCache(env = process.env) {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'ctrlkit', 'go-programs');
}

/** The program named `name`; throws naming the known names when there is none. */
export function goProgramSpec(name) {
  const spec = GO_PROGRAMS.find((p) => p.name === name);
  if (spec === undefined) {
    const known = GO_PROGRAMS.map((p) => p.name).join(', ');
    throw new Error(`unknown Go program ${JSON.stringify(name)} (known: ${known})`);
  }
  return spec;
}

/**
 * Where `name`'s binary is (or will be) built: a folder keyed by a hash of its sources
 * (go.mod, go.sum, *.go), so an edited program is rebuilt rather than a stale one used.
 */
export function goProgramPath(name, env = process.env) {
  const spec = goProgramSpec(name);
  const hash = createHash('sha256');
  const files = readdirSync(spec.dir)
    .filter((f) => f === 'go.mod' || f === 'go.sum' || f.endsWith('.go'))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(spec.dir, file)));
  }
  return join(goProgramsCache(env), `${name}-${hash.digest('hex').slice(0, 12)}`, name);
}

/**
 * The built binary of `name`, for a test or bench to run. Throws, naming the set-up command,
 * when it has not been built (or its sources changed since).
 */
export function goProgram(name, env = process.env) {
  const path = goProgramPath(name, env);
  if (!existsSync(path)) {
    throw new Error(
      `the Go program ${name} (${goProgramSpec(name).dir}) is not built for its current sources: ` +
        `run \`${SETUP_COMMAND} ${name}\` (or \`${SETUP_COMMAND}\` for all; the first build takes ` +
        `minutes), then run the tests again`,
    );
  }
  return path;
}

/**
 * Builds each named program that is not in the cache: `go build` into a temporary folder,
 * renamed into place, so an interrupted build leaves nothing. No timeout; a progress line at
 * least every 30 s. Rejects with the program's name and go's exit status on failure.
 */
export async function buildGoPrograms(names, { log = console.log, env = process.env } = {}) {
  for (const name of names) {
    const target = goProgramPath(name, env);
    if (existsSync(target)) {
      log(`Go program ${name}: cached (${target})`);
      continue;
    }
    await buildOne(goProgramSpec(name), target, log, env);
  }
}

async function buildOne(spec, target, log, env) {
  const folder = dirname(target);
  const partial = `${folder}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const started = Date.now();
  log(`Go program ${spec.name}: building from ${spec.dir} (the first build compiles client-go)`);
  const progress = setInterval(() => {
    log(`Go program ${spec.name}: still building, ${Math.round((Date.now() - started) / 1000)} s`);
  }, 30_000);
  try {
    await goBuild(spec, join(partial, spec.name), env);
    rmSync(folder, { recursive: true, force: true });
    renameSync(partial, folder);
  } finally {
    clearInterval(progress);
    rmSync(partial, { recursive: true, force: true });
  }
  log(`Go program ${spec.name}: built in ${Math.round((Date.now() - started) / 1000)} s`);
}

function goBuild(spec, output, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('go', ['build', '-trimpath', '-o', output, '.'], {
      cwd: spec.dir,
      stdio: ['ignore', 'inherit', 'inherit'],
      env,
    });
    child.on('error', (error) =>
      reject(new Error(`could not run go to build ${spec.name}: ${error.message}`)),
    );
    child.on('exit', (code, signal) => {
      if (code === 0) resolvePromise();
      else
        reject(new Error(`go build of ${spec.name} (${spec.dir}) exited with ${code ?? signal}`));
    });
  });
}
