//! The `ctrlkit-envtest` command: `setup` gets or builds the binaries, `start` runs a control plane.

import { execFile } from 'node:child_process';
import { copyFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { InvalidArgumentError } from '@ctrlkit/core';
import { COMPONENTS, type ComponentName, resolveComponents } from './components.js';
import { startControlPlane } from './control-plane.js';
import { EnvtestError } from './errors/envtest-error.js';
import { formatDuration } from './internal/format.js';
import { resolveBinaries } from './resolve-binaries.js';
import { ETCD_VERSION, KUBERNETES_VERSION } from './versions.js';

const USAGE = `usage: ctrlkit-envtest <command> [options]

commands:
  setup    find or build kube-apiserver v${KUBERNETES_VERSION} and etcd v${ETCD_VERSION}; print their folder
           (export KUBEBUILDER_ASSETS=$(ctrlkit-envtest setup))
  start    run a control plane in the foreground until Ctrl-C
  help     show this text

setup and start options:
  --components <list>             also find or build (and, with start, run) these, comma-separated:
                                  ${COMPONENTS.join(', ')}, or all (default: none)

start options:
  --port <n>                      kube-apiserver port on 127.0.0.1 (default: a free port)
  --kubeconfig <path>             also write the kubeconfig there (removed on stop)
  --etcd-compaction-interval-ms <n>  kube-apiserver --etcd-compaction-interval, in ms
  --no-watch-cache                kube-apiserver --watch-cache=false
  --node-monitor-grace-period-ms <n>  kube-controller-manager --node-monitor-grace-period, in ms

Binaries come from KUBEBUILDER_ASSETS, else setup-envtest's store (~/.local/share/kubebuilder-envtest),
else $XDG_CACHE_HOME/ctrlkit/envtest/v${KUBERNETES_VERSION}, else they are downloaded there from the
envtest release index (CTRLKIT_ENVTEST_RELEASE_INDEX; CTRLKIT_ENVTEST_DOWNLOAD=false turns it off),
else built there with Go (once). kube-scheduler and kube-controller-manager are always built.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'setup':
      return setup(rest);
    case 'start':
      return start(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`unknown command ${JSON.stringify(command)}\n\n${USAGE}\n`);
      return 2;
  }
}

async function setup(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { components: { type: 'string' } }, strict: true });
  const components = componentList(values.components);
  const started = performance.now();
  const binaries = await resolveBinaries({ components });
  const took = formatDuration(performance.now() - started);
  const record = (r: { builtAt: string; buildMs: number } | undefined) =>
    `built ${r?.builtAt ?? '?'} in ${formatDuration(r?.buildMs ?? 0)}`;
  const how = {
    build: `built; this run took ${took}`,
    download: `downloaded; this run took ${took}`,
    cache: 'from the cache',
    'setup-envtest': "from setup-envtest's store",
    assets: 'from KUBEBUILDER_ASSETS',
  }[binaries.source];
  const lines = await Promise.all([
    version(binaries.kubeApiServer, ['--version']).then(
      (v) => `kube-apiserver ${v}${binaries.build ? ` (${record(binaries.build)})` : ''}`,
    ),
    version(binaries.etcd, ['--version']).then((v) => `etcd ${v}`),
    ...components.map((c) =>
      version(binaries.components[c]!, ['--version']).then((v) => {
        const build = binaries.componentBuilds[c];
        const download = binaries.componentDownloads[c];
        const how = build
          ? ` (${record(build)})`
          : download
            ? ` (downloaded ${download.downloadedAt} from ${download.url})`
            : '';
        return `${c} ${v}${how}`;
      }),
    ),
  ]);
  process.stderr.write(`[envtest] ${how}: ${lines.join(', ')}\n`);
  process.stdout.write(`${binaries.directory}\n`);
  return 0;
}

async function start(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      port: { type: 'string' },
      kubeconfig: { type: 'string' },
      'etcd-compaction-interval-ms': { type: 'string' },
      'no-watch-cache': { type: 'boolean' },
      components: { type: 'string' },
      'node-monitor-grace-period-ms': { type: 'string' },
    },
  });
  const components = componentList(values.components);
  let failed: Error | undefined;
  let wake: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`\n[envtest] ${signal}: stopping\n`);
    wake();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const plane = await startControlPlane({
    apiServerPort: integer('--port', values.port),
    etcdCompactionIntervalMs: integer(
      '--etcd-compaction-interval-ms',
      values['etcd-compaction-interval-ms'],
    ),
    watchCache: values['no-watch-cache'] ? false : undefined,
    components,
    nodeMonitorGracePeriodMs: integer(
      '--node-monitor-grace-period-ms',
      values['node-monitor-grace-period-ms'],
    ),
    onUnexpectedExit: (error) => {
      failed = error;
      wake();
    },
  });
  let kubeconfig = plane.kubeconfigPath;
  if (values.kubeconfig !== undefined) {
    kubeconfig = resolve(values.kubeconfig);
    await copyFile(plane.kubeconfigPath, kubeconfig);
  }
  process.stdout.write(
    [
      '',
      `control plane ready in ${formatDuration(plane.timings.totalMs)}: kube-apiserver v${KUBERNETES_VERSION} at ${plane.server}, etcd at ${plane.etcdUrl}`,
      ...plane.components.map((c) => `  ${c.name}: ${c.url} (log ${c.logPath})`),
      `  binaries:   ${plane.binaries.directory} (${plane.binaries.source})`,
      `  data, logs: ${plane.directory}`,
      `  kubeconfig: ${kubeconfig}`,
      '',
      'use it with kubectl:',
      `  export KUBECONFIG=${kubeconfig}`,
      '  kubectl get namespaces',
      `  kubectl --kubeconfig ${kubeconfig} api-resources`,
      '',
      'press Ctrl-C to stop (removes every process and the data folder)',
      '',
    ].join('\n'),
  );
  await stopped;
  await plane.stop();
  if (kubeconfig !== plane.kubeconfigPath) await rm(kubeconfig, { force: true });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (failed) {
    process.stderr.write(`[envtest] ${failed.message}\n`);
    return 1;
  }
  process.stderr.write('[envtest] stopped\n');
  return 0;
}

/** `--components a,b` (or `all`) as validated component names. */
function componentList(value: string | undefined): readonly ComponentName[] {
  if (value === undefined) return [];
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return resolveComponents(names.includes('all') ? [...COMPONENTS] : names, '--components');
}

function integer(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError(flag, `not an integer: ${value}`);
  return n;
}

async function version(binary: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(binary, args);
    return stdout
      .split('\n')[0]!
      .replace(/^etcd Version:\s*/, 'v')
      .replace(/^Kubernetes\s*/, '')
      .trim();
  } catch (error) {
    return `(could not run ${binary}: ${(error as Error).message})`;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message =
      EnvtestError.isInstance(error) || error instanceof Error ? error.message : String(error);
    process.stderr.write(`ctrlkit-envtest: ${message}\n`);
    process.exitCode = 1;
  },
);
