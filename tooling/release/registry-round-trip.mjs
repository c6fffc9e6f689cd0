#!/usr/bin/env node
// pnpm check:release
//
// The release, proven: every publishable package and app of the workspace is published to a
// local registry (verdaccio on loopback, its storage in a temp folder, anonymous publish for
// @ctrlkit/*, everything else proxied to the registry this machine uses), then each one is
// installed ALONE from that registry into an empty scratch project outside the workspace, with
// pnpm's isolated node_modules, so only its declared dependencies (and theirs) can be resolved.
// In that project:
//   - every subpath of its `exports` is imported by Node (ESM) and must have exports;
//   - one file importing every subpath is type-checked by `tsc` twice, with `moduleResolution`
//     node16 and bundler, skipLibCheck off (so the shipped .d.ts files are checked too);
//   - every `bin` runs with `--help` and must exit 0;
//   - no dependency range of the installed manifest is left as `workspace:`.
// And @ctrlkit/client alone, as its README's user has it (./client-alone.mjs): a project of its
// own that installs only it and client-node, holds nothing else of ctrlkit but core (never the
// runtime), type-checks the README's first program and runs a small program.
// It fails naming the package and what broke. Run after `pnpm build`.
//
// Options: --keep (leave the temp folder and print it), --only <name,...> (a subset).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { codeEntryPoints, publishable, root } from '@ctrlkit/workspace';
import { checkClientAlone } from './client-alone.mjs';
import { tscErrors } from './tsc-output.mjs';

const { values: flags } = parseArgs({
  options: { keep: { type: 'boolean', default: false }, only: { type: 'string' } },
});

/** The registry this machine installs from: verdaccio's uplink for everything not ours. */
function upstreamRegistry() {
  const out = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' });
  const url = out.status === 0 ? out.stdout.trim() : '';
  return url.startsWith('http') ? url : 'https://registry.npmjs.org/';
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function run(command, args, options = {}) {
  const out = spawnSync(command, args, { encoding: 'utf8', ...options });
  const output = `${out.stdout ?? ''}${out.stderr ?? ''}${out.error ? `\n${out.error.message}` : ''}`;
  return { ok: out.status === 0, status: out.status, output: output.trim() };
}

async function startRegistry(work, upstream) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = join(work, 'verdaccio.yaml');
  writeFileSync(
    config,
    [
      `storage: ${join(work, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(work, 'htpasswd')}`,
      'uplinks:',
      '  upstream:',
      `    url: ${upstream}`,
      '    timeout: 60s',
      '    maxage: 30m',
      'packages:',
      "  '@ctrlkit/*':",
      '    access: $all',
      '    publish: $anonymous $all',
      "  '**':",
      '    access: $all',
      '    proxy: upstream',
      'web:',
      '  enable: false',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const bin = join(root, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  const child = spawn(
    process.execPath,
    [bin, '--config', config, '--listen', `127.0.0.1:${port}`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr.on('data', (chunk) => {
    log += chunk;
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${url}-/ping`);
      if (response.ok) return { url, child, log: () => log };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill();
  throw new Error(`verdaccio did not answer on ${url} within 30 s:\n${log}`);
}

const TSCONFIG_BASE = {
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  target: 'es2023',
  lib: ['es2023'],
  types: ['node'],
};

/** The scratch project of one package: its folder name and the file that imports every subpath. */
function scratchName(name) {
  return name.replace('@', '').replace('/', '-');
}

/** The `@types/ws` a TypeScript user of client-node installs beside it (see layOutScratch). */
const TYPES_WS = '8.18.2';

/** The `@types/node` of the workspace, which the scratch projects install too. */
function typesNodeVersion() {
  return JSON.parse(
    readFileSync(join(root, 'node_modules', '@types', 'node', 'package.json'), 'utf8'),
  ).version;
}

/**
 * Lays out a scratch pnpm workspace outside the repository with one project per package, each
 * depending on that package alone (and its peers: a user of the subpath that needs an optional
 * peer installs it). `hoist=false`: a package sees only what it declares, as under any strict
 * installer; one install for all of them (one resolution, one download of the shared tree).
 */
function layOutScratch(scratch, packages, registry) {
  const typesNode = typesNodeVersion();
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'pnpm-workspace.yaml'), "packages:\n  - '*'\n");
  writeFileSync(
    join(scratch, '.npmrc'),
    `registry=${registry}\nhoist=false\nstrict-peer-dependencies=false\nauto-install-peers=true\n`,
  );
  // The type-check runs from the scratch root, so `types: ['node']` resolves from there. A
  // TypeScript user of client-node also adds `@types/ws`: client-node's isomorphic-ws declares
  // `import WebSocket from 'ws'` and neither depends on ws' types (TS7016 without them).
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({
      name: 'scratch',
      private: true,
      devDependencies: { '@types/node': typesNode, '@types/ws': TYPES_WS },
    }),
  );
  for (const { manifest } of packages) {
    const dir = join(scratch, scratchName(manifest.name));
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: `scratch-${scratchName(manifest.name)}`,
        private: true,
        type: 'module',
        dependencies: { [manifest.name]: manifest.version, ...manifest.peerDependencies },
        devDependencies: { '@types/node': typesNode },
      }),
    );
  }
}

/** Checks one installed package in its scratch project (all but types); returns the failures. */
function checkInstalled(pkg, scratch) {
  const { name } = pkg.manifest;
  const failures = [];
  const dir = join(scratch, scratchName(name));
  const installed = JSON.parse(
    readFileSync(join(dir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8'),
  );
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dep, range] of Object.entries(installed[field] ?? {})) {
      if (range.startsWith('workspace:')) failures.push(`${field}.${dep} is '${range}'`);
    }
  }
  // One process imports every subpath (ESM, as a user's program does) and names each that fails.
  const specifiers = codeEntryPoints(installed).map((entry) => entry.specifier);
  const probe = `
    for (const specifier of ${JSON.stringify(specifiers)}) {
      try {
        const m = await import(specifier);
        if (Object.keys(m).length === 0) throw new Error('it has no exports');
      } catch (error) {
        process.exitCode = 1;
        console.error(\`import '\${specifier}' failed: \${error.message ?? error}\`);
      }
    }`;
  const imported = run(process.execPath, ['--input-type=module', '-e', probe], { cwd: dir });
  if (!imported.ok) failures.push(imported.output);
  writeFileSync(
    join(dir, 'check.ts'),
    `${specifiers
      .map((specifier, i) => `import * as m${i} from ${JSON.stringify(specifier)};`)
      .join('\n')}\nexport const modules = [${specifiers.map((_, i) => `m${i}`).join(', ')}];\n`,
  );
  const bins =
    typeof installed.bin === 'string' ? { [name]: installed.bin } : (installed.bin ?? {});
  for (const bin of Object.keys(bins)) {
    const help = run(join(dir, 'node_modules', '.bin', bin), ['--help'], {
      cwd: dir,
      timeout: 60_000,
    });
    if (!help.ok) failures.push(`'${bin} --help' did not exit 0:\n${help.output}`);
  }
  return failures;
}

/**
 * Type-checks every scratch project's `check.ts` in one program per resolution mode (each
 * file resolves from its own project's node_modules). skipLibCheck is off so our shipped
 * `.d.ts` are checked. Every tsc error fails the run: one in a package's files (its
 * `check.ts` or its installed `.d.ts`) is listed under that package, any other (a
 * third-party declaration, a missing type library, no position at all, a non-zero exit
 * with no error printed) under `program`. Returns the failures by package name, and `program`.
 */
function typeCheck(scratch, packages) {
  const byPackage = new Map();
  const program = [];
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const owner = (file) => {
    const ours =
      /(?:^|\/)(?:node_modules\/\.pnpm\/@ctrlkit\+([^@/]+)@[^/]*\/|([^/]+)\/check\.ts)/.exec(file);
    if (!ours) return undefined;
    if (ours[1]) return `@ctrlkit/${ours[1]}`;
    return packages.find((p) => scratchName(p.manifest.name) === ours[2])?.manifest.name;
  };
  for (const [label, options] of [
    ['node16', { module: 'node16', moduleResolution: 'node16' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ]) {
    const config = `tsconfig.${label}.json`;
    writeFileSync(
      join(scratch, config),
      JSON.stringify({
        compilerOptions: { ...TSCONFIG_BASE, ...options },
        files: packages.map((p) => `${scratchName(p.manifest.name)}/check.ts`),
      }),
    );
    const checked = run(process.execPath, [tsc, '-p', config, '--pretty', 'false'], {
      cwd: scratch,
    });
    for (const error of tscErrors(checked.output, checked.status)) {
      const name = error.file === undefined ? undefined : owner(error.file);
      const failure = `tsc (moduleResolution ${label}): ${error.text}`;
      if (!packages.some((p) => p.manifest.name === name)) {
        program.push(failure);
        continue;
      }
      const list = byPackage.get(name) ?? [];
      list.push(failure);
      byPackage.set(name, list);
    }
  }
  return { byPackage, program };
}

/** When `@ctrlkit/client` is among `packages`: its check alone (./client-alone.mjs), into `failures`. */
async function checkAlone(packages, { work, registry, failures, started }) {
  const client = packages.find((p) => p.manifest.name === '@ctrlkit/client');
  if (!client) return;
  const alone = checkClientAlone({
    dir: join(work, 'client-alone'),
    registry,
    version: client.manifest.version,
    types: { node: typesNodeVersion(), ws: TYPES_WS },
    compilerOptions: TSCONFIG_BASE,
    root,
    port: await freePort(),
  });
  failures.get(client.manifest.name).push(...alone.map((failure) => `alone: ${failure}`));
  const mark = alone.length === 0 ? '✔' : '✘';
  console.log(
    `${mark} @ctrlkit/client installed alone, its programs checked (${elapsed(started)})`,
  );
}

function elapsed(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

async function main() {
  const started = Date.now();
  const only = flags.only ? new Set(flags.only.split(',')) : undefined;
  const packages = publishable().filter((p) => !only || only.has(p.manifest.name));
  const work = mkdtempSync(join(tmpdir(), 'ctrlkit-release-'));
  const upstream = upstreamRegistry();
  const registry = await startRegistry(work, upstream);
  let failed = 0;
  let programFailed = false;
  try {
    console.log(
      `▶ verdaccio on ${registry.url} (storage ${join(work, 'storage')}, uplink ${upstream})`,
    );
    // npm refuses to publish without a credential: any token does, verdaccio lets @ctrlkit/*
    // be published anonymously.
    const host = registry.url.replace(/^http:/, '');
    const userconfig = join(work, 'npmrc');
    writeFileSync(userconfig, `${host}:_authToken=anonymous\nregistry=${registry.url}\n`);
    const publishEnv = { ...process.env, npm_config_userconfig: userconfig };
    const filters = packages.flatMap((p) => ['--filter', p.manifest.name]);
    const published = run(
      'pnpm',
      [...filters, 'publish', '-r', '--registry', registry.url, '--no-git-checks'],
      { cwd: root, env: publishEnv },
    );
    if (!published.ok) throw new Error(`pnpm publish failed:\n${published.output}`);
    console.log(`✔ published ${packages.length} packages (${elapsed(started)})`);

    const scratch = join(work, 'scratch');
    layOutScratch(scratch, packages, registry.url);
    const installed = run('pnpm', ['install'], {
      cwd: scratch,
      env: { ...process.env, npm_config_registry: registry.url },
    });
    if (!installed.ok) throw new Error(`install from the registry failed:\n${installed.output}`);
    console.log(`✔ installed each package in its own project (${elapsed(started)})`);
    const failures = new Map(packages.map((p) => [p.manifest.name, checkInstalled(p, scratch)]));
    console.log(`✔ imported every subpath, ran every bin with --help (${elapsed(started)})`);
    await checkAlone(packages, { work, registry: registry.url, failures, started });
    const typed = typeCheck(scratch, packages);
    for (const [name, list] of typed.byPackage) failures.get(name)?.push(...list);
    if (typed.program.length > 0) {
      programFailed = true;
      console.error('✘ the type-check failed outside any one package:');
      for (const failure of typed.program)
        console.error(`  - ${failure.replaceAll('\n', '\n    ')}`);
    } else console.log(`✔ type-checked every subpath, node16 and bundler (${elapsed(started)})`);
    for (const { manifest } of packages) {
      const list = failures.get(manifest.name);
      if (list.length === 0) {
        console.log(`✔ ${manifest.name}@${manifest.version}`);
        continue;
      }
      failed++;
      console.error(`✘ ${manifest.name}@${manifest.version}:`);
      for (const failure of list) console.error(`  - ${failure.replaceAll('\n', '\n    ')}`);
    }
  } finally {
    registry.child.kill();
    if (flags.keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  const seconds = elapsed(started);
  if (failed > 0 || programFailed) {
    const program = programFailed ? ', and the type-check outside them' : '';
    console.error(
      `✘ registry round trip: ${failed} of ${packages.length} packages failed${program} (${seconds})`,
    );
    process.exit(1);
  }
  console.log(`✔ registry round trip: ${packages.length} packages (${seconds})`);
}

await main();
