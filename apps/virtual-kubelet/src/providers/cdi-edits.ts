//! The CDI devices of a container, resolved from the CDI spec directories into what a process can take: its environment.

import { type Logger, noopLogger } from '@ctrlkit/core';
import type { CdiContainerEdits, LoadedSpec } from '@ctrlkit/dra-kubeletplugin';
import type { PodResources } from '@ctrlkit/node-controller';

/** Where a provider resolves CDI devices. */
export interface CdiOptions {
  /** CDI spec directories, lowest priority first. Default `CDI_DEFAULT_SPEC_DIRS` (`/etc/cdi`, `/var/run/cdi`). */
  specDirs?: readonly string[];
  /** Where edits a process cannot take (mounts, device nodes, hooks) are reported. Default: nowhere. */
  logger?: Logger;
}

/** What the container's CDI devices change in a process: environment variables. */
export interface ProcessCdiEdits {
  /** `NAME` → value, later entries winning, as CDI appends them after the container's own. */
  readonly env: Record<string, string>;
}

/** Adds `edits.env` to `env`; logs the edits a process cannot take (mounts, device nodes, hooks, gids). */
function applyEdits(
  env: Record<string, string>,
  edits: CdiContainerEdits | undefined,
  where: string,
  logger: Logger,
): void {
  for (const entry of edits?.env ?? []) {
    const at = entry.indexOf('=');
    env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  const unsupported = (['mounts', 'deviceNodes', 'hooks', 'additionalGids'] as const).filter(
    (k) => (edits?.[k]?.length ?? 0) > 0,
  );
  if (unsupported.length > 0) {
    logger.warn({ cdi: where, edits: unsupported }, 'CDI edits not supported by processes');
  }
}

/**
 * Resolves the CDI device IDs `ids` (`vendor/class=name`) from the specs in `dirs` (later
 * directories win) and merges their environment as the CDI library injects devices: each
 * spec's own `containerEdits` once, before its first device, then the device's. Mounts,
 * device nodes, hooks and additional GIDs are logged as not supported. Throws an error
 * naming a device no spec defines (the pod is retried: its spec may be written late).
 */
export async function resolveCdiEdits(
  dirs: readonly string[],
  ids: readonly string[],
  logger: Logger,
): Promise<ProcessCdiEdits> {
  const env: Record<string, string> = {};
  if (ids.length === 0) return { env };
  // Loaded on first use: a node without CDI devices never loads the kubelet plugin package
  // (its gRPC server and protocol are a few MB of heap once imported).
  const { findDevice, readSpecDirs } = await import('@ctrlkit/dra-kubeletplugin');
  const { specs, errors } = await readSpecDirs(dirs);
  for (const error of errors) logger.warn({ err: error }, 'CDI spec skipped');
  const applied = new Set<LoadedSpec>();
  for (const id of ids) {
    const found = findDevice(specs, id);
    if (found === undefined) {
      throw new Error(`CDI device ${id} is not defined by any spec in ${dirs.join(', ')}`);
    }
    if (!applied.has(found.spec)) {
      applied.add(found.spec);
      applyEdits(env, found.spec.spec.containerEdits, found.spec.path, logger);
    }
    applyEdits(env, found.device.containerEdits, id, logger);
  }
  return { env };
}

/**
 * Adds to each container's `env` the environment of its CDI devices in `resources`
 * (`cdiDevices` by container name), resolved from `options.specDirs` by {@link resolveCdiEdits}; CDI
 * entries win over the container's own, as CDI edits come after them.
 */
export async function addCdiEnv(
  containers: ReadonlyArray<{ readonly name: string; env: Record<string, string> }>,
  resources: PodResources | undefined,
  options: CdiOptions,
): Promise<void> {
  const logger = options.logger ?? noopLogger;
  for (const container of containers) {
    const ids = resources?.cdiDevices[container.name] ?? [];
    if (ids.length === 0) continue;
    const dirs =
      options.specDirs ?? (await import('@ctrlkit/dra-kubeletplugin')).CDI_DEFAULT_SPEC_DIRS;
    Object.assign(container.env, (await resolveCdiEdits(dirs, ids, logger)).env);
  }
}
