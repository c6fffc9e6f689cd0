//! The registry round trip's check of `@ctrlkit/client` alone: a user's project that installs it (and client-node, for the model types) from the local registry, without the runtime, type-checks the README's first program and runs a small one.

import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { tscErrors } from './tsc-output.mjs';

/**
 * The program the project runs (Node strips its types): it loads a kubeconfig naming a port
 * nothing listens on, makes a client, sends a GET that must fail to connect (the transport,
 * its TLS options and the request path all ran), and checks that a missing kubeconfig is a
 * `KubeConfigError` naming the file. Prints `ok` when all of that held.
 */
export const SMALL_PROGRAM = `import { writeFileSync } from 'node:fs';
import { createClient, KubeConfigError, loadKubeConfig } from '@ctrlkit/client';
import type { V1ConfigMap } from '@kubernetes/client-node';

const port = Number(process.argv[2]);
const file = new URL('./kubeconfig', import.meta.url).pathname;
writeFileSync(
  file,
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: \`https://127.0.0.1:\${port}\` } }],
    users: [{ name: 'u', user: { token: 'alone' } }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  }),
);
const client = createClient(loadKubeConfig({ kubeconfig: file }), {
  program: { name: 'alone', version: '1.0.0' },
});
if (!client.userAgent.startsWith('alone/1.0.0 ')) throw new Error(\`User-Agent \${client.userAgent}\`);
const refused = await client.get<V1ConfigMap>('configmaps', 'x', { namespace: 'default' }).then(
  () => undefined,
  (error: unknown) => error,
);
if (!String((refused as { code?: string })?.code ?? refused).includes('ECONNREFUSED'))
  throw new Error(\`the GET to a closed port: expected ECONNREFUSED, got \${String(refused)}\`);
client.close();
const missing = \`\${file}.missing\`;
try {
  loadKubeConfig({ kubeconfig: missing });
  throw new Error('loadKubeConfig of a missing file did not throw');
} catch (error) {
  if (!(error instanceof KubeConfigError) || !error.message.includes(missing)) throw error;
}
console.log('ok');
`;

function run(command, args, options) {
  const out = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000, ...options });
  const output = `${out.stdout ?? ''}${out.stderr ?? ''}${out.error ? `\n${out.error.message}` : ''}`;
  return {
    ok: out.status === 0,
    status: out.status,
    stdout: out.stdout ?? '',
    output: output.trim(),
  };
}

/** The packages pnpm installed into `dir` (its virtual store), as `name@version` folder names. */
function installedTree(dir) {
  const store = join(dir, 'node_modules', '.pnpm');
  return existsSync(store) ? readdirSync(store).filter((name) => name !== 'node_modules') : [];
}

/**
 * Lays out, installs and checks the project in `dir`; returns the failures (empty when it all
 * held). `registry` is the local registry's URL, `version` the client's, `types` the versions
 * of `@types/node` and `@types/ws` a TypeScript user adds, `compilerOptions` those of the round
 * trip's type-checks (the module settings are set here), `root` the workspace (for the
 * README's program, `examples/client-first-program/src/main.ts`, and for tsc), `port` one
 * nothing listens on.
 */
export function checkClientAlone({ dir, registry, version, types, compilerOptions, root, port }) {
  const clientNode = JSON.parse(
    readFileSync(join(root, 'packages', 'client', 'package.json'), 'utf8'),
  ).dependencies['@kubernetes/client-node'];
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '.npmrc'), `registry=${registry}\nhoist=false\n`);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'client-alone',
      private: true,
      type: 'module',
      dependencies: { '@ctrlkit/client': version, '@kubernetes/client-node': clientNode },
      devDependencies: { '@types/node': types.node, '@types/ws': types.ws },
    }),
  );
  copyFileSync(
    join(root, 'examples', 'client-first-program', 'src', 'main.ts'),
    join(dir, 'first-program.ts'),
  );
  writeFileSync(join(dir, 'small-program.ts'), SMALL_PROGRAM);
  const installed = run('pnpm', ['install'], {
    cwd: dir,
    env: { ...process.env, npm_config_registry: registry },
  });
  if (!installed.ok) return [`install from the registry failed:\n${installed.output}`];
  const failures = [];
  const tree = installedTree(dir);
  const ours = tree.filter((name) => name.startsWith('@ctrlkit+'));
  if (!ours.some((name) => name.startsWith(`@ctrlkit+client@${version}`)))
    failures.push(`@ctrlkit/client@${version} is not in the install tree: ${tree.join(', ')}`);
  const extra = ours.filter((name) => !/^@ctrlkit\+(?:client|core)@/.test(name));
  if (extra.length > 0)
    failures.push(
      `the install tree holds more of ctrlkit than client and core: ${extra.join(', ')}`,
    );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['first-program.ts', 'small-program.ts'],
    }),
  );
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const checked = run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], {
    cwd: dir,
  });
  for (const error of tscErrors(checked.output, checked.status))
    failures.push(`tsc: ${error.text}`);
  const ran = run(process.execPath, ['small-program.ts', String(port)], { cwd: dir });
  if (!ran.ok || ran.stdout.trim() !== 'ok')
    failures.push(`'node small-program.ts' failed (exit ${ran.status}):\n${ran.output}`);
  return failures;
}
