//! CDI spec files: written atomically (temp file + rename), removed, and read back from spec directories.

import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { InvalidArgumentError } from '@ctrlkit/core';
import { CdiError } from './cdi-error.js';
import {
  type CdiContainerEdits,
  type CdiDevice,
  type CdiSpec,
  minimumRequiredVersion,
  validateSpec,
} from './cdi-spec.js';
import { parseQualifiedName } from './qualified-name.js';

/** The directory for static specs: `/etc/cdi`. */
export const CDI_STATIC_DIR = '/etc/cdi';
/** The directory for generated specs: `/var/run/cdi`. */
export const CDI_DYNAMIC_DIR = '/var/run/cdi';
/** The default spec directories, lowest priority first. */
export const CDI_DEFAULT_SPEC_DIRS: readonly string[] = [CDI_STATIC_DIR, CDI_DYNAMIC_DIR];

/** A spec to write: `cdiVersion` defaults to the lowest version its content needs. */
export type CdiSpecInput = Omit<CdiSpec, 'cdiVersion'> & { cdiVersion?: string };

/** The file name of a transient spec (one per claim, say): `<vendor>-<class>_<id>` (the Go library's `GenerateTransientSpecName`). */
export function transientSpecName(vendor: string, cls: string, transientId: string): string {
  return `${vendor}-${cls}_${transientId.replaceAll('/', '_')}`;
}

function fileName(name: string): string {
  if (typeof name !== 'string' || name === '' || name.includes('/')) {
    throw new InvalidArgumentError('name', `must be a file name, got ${JSON.stringify(name)}`);
  }
  const ext = extname(name);
  if (ext === '.yaml')
    throw new InvalidArgumentError('name', 'YAML specs are not written; use .json or no extension');
  return ext === '.json' ? name : `${name}.json`;
}

function editsJson(edits: CdiContainerEdits | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['env', 'deviceNodes', 'hooks', 'mounts', 'additionalGids'] as const) {
    const value = edits?.[key];
    if (value !== undefined && value.length > 0) out[key] = value;
  }
  return out;
}

/** The spec as the Go library marshals it: its field order, empty lists and maps left out. */
export function specJson(spec: CdiSpec): string {
  const annotations = (a: Record<string, string> | undefined) =>
    a && Object.keys(a).length > 0 ? { annotations: a } : {};
  return JSON.stringify({
    cdiVersion: spec.cdiVersion,
    kind: spec.kind,
    ...annotations(spec.annotations),
    devices: spec.devices.map((d: CdiDevice) => ({
      name: d.name,
      ...annotations(d.annotations),
      containerEdits: editsJson(d.containerEdits),
    })),
    containerEdits: editsJson(spec.containerEdits),
  });
}

/**
 * Validates `spec` and writes it to `<dir>/<name>.json` atomically: a temp file in `dir`,
 * then a rename over any earlier version, so a reader never sees half a spec. Creates
 * `dir`. Returns the path. Errors: `CdiError` (`InvalidSpec`), `InvalidArgumentError` (name).
 */
export async function writeSpec(dir: string, spec: CdiSpecInput, name: string): Promise<string> {
  const full: CdiSpec = {
    ...spec,
    cdiVersion: spec.cdiVersion ?? minimumRequiredVersion(spec as CdiSpec),
  };
  const path = join(dir, fileName(name));
  validateSpec(full);
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const tmp = join(dir, `spec.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, specJson(full), { flag: 'wx', mode: 0o644 });
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  return path;
}

/** Removes `<dir>/<name>.json`; no error when it is not there. */
export async function removeSpec(dir: string, name: string): Promise<void> {
  await rm(join(dir, fileName(name)), { force: true });
}

/** A spec read from a file; `priority` is its directory's index (later directories win). */
export interface LoadedSpec {
  readonly path: string;
  readonly priority: number;
  readonly spec: CdiSpec;
}

/** What reading the spec directories gave: valid specs, and the files that were not. */
export interface SpecDirsContent {
  readonly specs: readonly LoadedSpec[];
  readonly errors: readonly CdiError[];
}

async function readOne(path: string, priority: number): Promise<LoadedSpec> {
  let spec: CdiSpec;
  try {
    spec = JSON.parse(await readFile(path, 'utf8')) as CdiSpec;
  } catch (error) {
    throw new CdiError('InvalidSpec', `failed to parse CDI spec: ${(error as Error).message}`, {
      path,
      cause: error,
    });
  }
  try {
    validateSpec(spec);
  } catch (error) {
    throw new CdiError('InvalidSpec', (error as Error).message, { path, cause: error });
  }
  return { path, priority, spec };
}

/**
 * Reads every `*.json` spec in `dirs` (missing directories are skipped; `*.yaml` files are
 * reported as not supported), in name order. Invalid files land in `errors`, never throw.
 */
export async function readSpecDirs(
  dirs: readonly string[] = CDI_DEFAULT_SPEC_DIRS,
): Promise<SpecDirsContent> {
  const specs: LoadedSpec[] = [];
  const errors: CdiError[] = [];
  for (const [priority, dir] of dirs.entries()) {
    const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    for (const name of names.sort()) {
      const path = join(dir, name);
      if (name.endsWith('.yaml'))
        errors.push(new CdiError('InvalidSpec', 'YAML specs are not supported', { path }));
      if (!name.endsWith('.json')) continue;
      await readOne(path, priority).then(
        (spec) => specs.push(spec),
        (error: CdiError) => errors.push(error),
      );
    }
  }
  return { specs, errors };
}

/** The device `id` (`vendor/class=name`) in `specs`, from the highest-priority spec that has it; undefined when none. */
export function findDevice(
  specs: readonly LoadedSpec[],
  id: string,
): { spec: LoadedSpec; device: CdiDevice } | undefined {
  const { vendor, class: cls, name } = parseQualifiedName(id);
  let found: { spec: LoadedSpec; device: CdiDevice } | undefined;
  for (const spec of specs) {
    if (spec.spec.kind !== `${vendor}/${cls}`) continue;
    const device = spec.spec.devices.find((d) => d.name === name);
    if (device && (found === undefined || spec.priority >= found.spec.priority))
      found = { spec, device };
  }
  return found;
}
