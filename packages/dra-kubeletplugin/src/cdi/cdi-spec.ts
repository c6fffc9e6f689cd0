//! The cdi.k8s.io spec (container-device-interface's specs-go): types, validation, minimum version.

import { CdiError } from './cdi-error.js';
import { validateClassName, validateDeviceName, validateVendorName } from './qualified-name.js';

/** A device node to add (`specs-go.DeviceNode`). */
export interface CdiDeviceNode {
  path: string;
  hostPath?: string;
  type?: string;
  major?: number;
  minor?: number;
  fileMode?: number;
  permissions?: string;
  uid?: number;
  gid?: number;
}

/** A mount to add (`specs-go.Mount`). */
export interface CdiMount {
  hostPath: string;
  containerPath: string;
  options?: string[];
  type?: string;
}

/** An OCI hook to add (`specs-go.Hook`). */
export interface CdiHook {
  hookName: string;
  path: string;
  args?: string[];
  env?: string[];
  timeout?: number;
}

/** What a runtime changes in a container for a device or a whole spec (`specs-go.ContainerEdits`). */
export interface CdiContainerEdits {
  /** `NAME=value` entries. */
  env?: string[];
  deviceNodes?: CdiDeviceNode[];
  hooks?: CdiHook[];
  mounts?: CdiMount[];
  additionalGids?: number[];
}

/** One device of a spec. */
export interface CdiDevice {
  name: string;
  annotations?: Record<string, string>;
  containerEdits: CdiContainerEdits;
}

/** A CDI spec file's content. */
export interface CdiSpec {
  /** Default when writing: the lowest version the spec's content needs (`minimumRequiredVersion`). */
  cdiVersion: string;
  /** `vendor/class`. */
  kind: string;
  annotations?: Record<string, string>;
  devices: CdiDevice[];
  containerEdits?: CdiContainerEdits;
}

/** The spec versions the Go library knows, oldest first. */
export const CDI_VERSIONS = [
  '0.1.0',
  '0.2.0',
  '0.3.0',
  '0.4.0',
  '0.5.0',
  '0.6.0',
  '0.7.0',
  '0.8.0',
  '1.0.0',
  '1.1.0',
] as const;
const HOOK_NAMES = new Set([
  'prestart',
  'createRuntime',
  'createContainer',
  'startContainer',
  'poststart',
  'poststop',
]);
const DEVICE_TYPES = new Set(['', 'b', 'c', 'u', 'p']);

function allEdits(spec: CdiSpec): CdiContainerEdits[] {
  return [...spec.devices.map((d) => d.containerEdits ?? {}), spec.containerEdits ?? {}];
}

/** The lowest `cdiVersion` whose features the spec uses (the Go library's `MinimumRequiredVersion`). */
export function minimumRequiredVersion(spec: CdiSpec): string {
  const edits = allEdits(spec);
  const hasAnnotations =
    Object.keys(spec.annotations ?? {}).length > 0 ||
    spec.devices.some((d) => Object.keys(d.annotations ?? {}).length > 0);
  if (edits.some((e) => (e.additionalGids?.length ?? 0) > 0)) return '0.7.0';
  if (hasAnnotations || (spec.kind.split('/')[1] ?? '').includes('.')) return '0.6.0';
  if (
    spec.devices.some((d) => /^[0-9]/.test(d.name)) ||
    edits.some((e) => e.deviceNodes?.some((n) => n.hostPath))
  )
    return '0.5.0';
  if (edits.some((e) => e.mounts?.some((m) => m.type))) return '0.4.0';
  return '0.3.0';
}

function validateEnv(env: string[] | undefined, where: string): void {
  for (const entry of env ?? []) {
    if (typeof entry !== 'string' || entry.indexOf('=') <= 0)
      throw new CdiError(
        'InvalidSpec',
        `${where}: invalid environment variable ${JSON.stringify(entry)}`,
      );
  }
}

function validateEdits(edits: CdiContainerEdits, where: string): void {
  validateEnv(edits.env, where);
  for (const node of edits.deviceNodes ?? []) {
    if (!node.path) throw new CdiError('InvalidSpec', `${where}: invalid (empty) device path`);
    if (!DEVICE_TYPES.has(node.type ?? ''))
      throw new CdiError(
        'InvalidSpec',
        `${where}: device ${node.path}: invalid type ${JSON.stringify(node.type)}`,
      );
    if (node.permissions && node.permissions.replace(/[rwm]/g, '') !== '') {
      throw new CdiError(
        'InvalidSpec',
        `${where}: device ${node.path}: invalid permissions ${JSON.stringify(node.permissions)}`,
      );
    }
  }
  for (const hook of edits.hooks ?? []) {
    if (!HOOK_NAMES.has(hook.hookName))
      throw new CdiError(
        'InvalidSpec',
        `${where}: invalid hook name ${JSON.stringify(hook.hookName)}`,
      );
    if (!hook.path)
      throw new CdiError(
        'InvalidSpec',
        `${where}: invalid hook ${JSON.stringify(hook.hookName)} with empty path`,
      );
    validateEnv(hook.env, `${where}: hook ${hook.hookName}`);
  }
  for (const mount of edits.mounts ?? []) {
    if (!mount.hostPath)
      throw new CdiError('InvalidSpec', `${where}: invalid mount, empty host path`);
    if (!mount.containerPath)
      throw new CdiError('InvalidSpec', `${where}: invalid mount, empty container path`);
  }
}

function isEmptyEdits(edits: CdiContainerEdits | undefined): boolean {
  if (!edits) return true;
  return ['env', 'deviceNodes', 'hooks', 'mounts', 'additionalGids'].every(
    (k) => ((edits as Record<string, unknown[] | undefined>)[k]?.length ?? 0) === 0,
  );
}

/** Throws `CdiError` (`InvalidSpec`) unless `spec` passes the Go library's checks. */
export function validateSpec(spec: CdiSpec): void {
  if (spec === null || typeof spec !== 'object')
    throw new CdiError('InvalidSpec', 'spec must be an object');
  const version = String(spec.cdiVersion ?? '').replace(/^v/, '');
  if (!(CDI_VERSIONS as readonly string[]).includes(version))
    throw new CdiError('InvalidSpec', `invalid version ${JSON.stringify(spec.cdiVersion)}`);
  const [vendor = '', cls = ''] =
    typeof spec.kind === 'string' && spec.kind.includes('/')
      ? [spec.kind.slice(0, spec.kind.indexOf('/')), spec.kind.slice(spec.kind.indexOf('/') + 1)]
      : [];
  try {
    validateVendorName(vendor);
    validateClassName(cls);
  } catch (error) {
    throw new CdiError(
      'InvalidSpec',
      `kind ${JSON.stringify(spec.kind)}: ${(error as Error).message}`,
    );
  }
  if (!Array.isArray(spec.devices) || spec.devices.length === 0)
    throw new CdiError('InvalidSpec', 'invalid spec, no devices');
  const minimum = minimumRequiredVersion(spec);
  if (CDI_VERSIONS.indexOf(version as never) < CDI_VERSIONS.indexOf(minimum as never)) {
    throw new CdiError('InvalidSpec', `the spec version must be at least v${minimum}`);
  }
  validateEdits(spec.containerEdits ?? {}, 'spec containerEdits');
  const seen = new Set<string>();
  for (const device of spec.devices) {
    try {
      validateDeviceName(String(device?.name ?? ''));
    } catch (error) {
      throw new CdiError('InvalidSpec', (error as Error).message);
    }
    if (seen.has(device.name))
      throw new CdiError(
        'InvalidSpec',
        `invalid spec, multiple device ${JSON.stringify(device.name)}`,
      );
    seen.add(device.name);
    if (isEmptyEdits(device.containerEdits))
      throw new CdiError(
        'InvalidSpec',
        `device ${JSON.stringify(device.name)}: invalid device, empty device edits`,
      );
    validateEdits(device.containerEdits, `device ${JSON.stringify(device.name)}`);
  }
}
