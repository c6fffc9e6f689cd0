// Helm for the apps' chart tests: the pinned binary that tooling/bootstrap builds from the Go
// module proxy (tooling/bootstrap/helm.json), `helm lint`, and `helm template` parsed to objects.
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type KubernetesObject, loadYaml } from '@kubernetes/client-node';

const exec = promisify(execFile);

/** tooling/bootstrap/helm.json: the Helm version and Go package the bootstrap builds. */
export const HELM_PIN_FILE = fileURLToPath(new URL('../../bootstrap/helm.json', import.meta.url));

/** The pinned Helm version (`3.22.0`). */
export async function helmVersion(): Promise<string> {
  return (JSON.parse(await readFile(HELM_PIN_FILE, 'utf8')) as { version: string }).version;
}

/**
 * The helm binary: `CTRLKIT_HELM`, else the bootstrap's build
 * (`$XDG_CACHE_HOME/ctrlkit/helm/v<pinned>/helm`), else `helm` on `PATH`; `undefined` when
 * there is none.
 */
export async function findHelm(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const cacheHome = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const candidates = [
    env.CTRLKIT_HELM,
    join(cacheHome, 'ctrlkit', 'helm', `v${await helmVersion()}`, 'helm'),
    ...(env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, 'helm')),
  ];
  for (const candidate of candidates) {
    if (
      candidate &&
      (await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      ))
    ) {
      return candidate;
    }
  }
  return undefined;
}

/** Runs helm; resolves to its stdout, or throws with its stderr. */
export async function runHelm(helm: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await exec(helm, args, { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`helm ${args.join(' ')} failed:\n${stderr ?? ''}${stdout ?? ''}`);
  }
}

/** What to render: release name, namespace and `--set` values. */
export interface TemplateOptions {
  readonly release: string;
  readonly namespace: string;
  /** `--set key=value` pairs. */
  readonly set?: Readonly<Record<string, string | number | boolean>>;
  /** `--include-crds`: also the chart's `crds/` folder. */
  readonly includeCrds?: boolean;
}

/** `helm template` of `chart`, parsed into objects (empty documents dropped). */
export async function helmTemplate(
  helm: string,
  chart: string,
  options: TemplateOptions,
): Promise<KubernetesObject[]> {
  const set = Object.entries(options.set ?? {}).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  const out = await runHelm(helm, [
    'template',
    options.release,
    chart,
    '--namespace',
    options.namespace,
    ...(options.includeCrds ? ['--include-crds'] : []),
    ...set,
  ]);
  // Documents holding only comments (a template whose condition is off) are dropped before
  // parsing: client-node's loadAllYaml cannot type an empty document.
  const documents = out
    .split(/^---[^\n]*$/m)
    .filter((d) =>
      d.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('#')),
    );
  return documents.map((d) => loadYaml<KubernetesObject>(d));
}

/** Objects sorted by kind, namespace and name, for comparing two sets of manifests. */
export function sortObjects(objects: readonly KubernetesObject[]): KubernetesObject[] {
  const key = (o: KubernetesObject) =>
    `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  return [...objects].sort((a, b) => key(a).localeCompare(key(b)));
}

/**
 * The helm binary, or an error that says how to get one: the bootstrap builds it
 * (`node tooling/bootstrap/run.mjs test`), or set `CTRLKIT_HELM`.
 */
export async function requireHelm(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const helm = await findHelm(env);
  if (helm === undefined) {
    throw new Error(
      `no helm: not in CTRLKIT_HELM, the bootstrap's cache (v${await helmVersion()}) or PATH; ` +
        '`node tooling/bootstrap/run.mjs test` builds it from the Go module proxy, or set CTRLKIT_HELM',
    );
  }
  return helm;
}

/**
 * What two releases would both own: the `kind/namespace/name` (namespace empty for a
 * cluster-scoped object) of every object in both `first` and `second`. Give it the
 * apiserver's answers to a dry run of two renders into two namespaces (the answers carry the
 * namespace of every namespaced object), so only cluster-scoped objects and those in a shared
 * namespace (kube-node-lease) can meet; a chart installable twice shares none.
 */
export function sharedObjects(
  first: readonly KubernetesObject[],
  second: readonly KubernetesObject[],
): string[] {
  const key = (o: KubernetesObject) =>
    `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
  const keys = new Set(first.map(key));
  return [...new Set(second.map(key))].filter((k) => keys.has(k)).sort();
}
