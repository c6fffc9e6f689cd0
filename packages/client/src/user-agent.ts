//! The User-Agent every request carries: `<program>/<version> (<os>/<arch>) ctrlkit/<version>`, as client-go builds its default.

import { basename } from 'node:path';
import packageJson from '../package.json' with { type: 'json' };

const ctrlkitVersion: string = packageJson.version;

/** The program named in the User-Agent (client-go's `os.Args[0]` and version). */
export interface ProgramInfo {
  /** Default: the base name of the script node runs (`process.argv[1]`), extension dropped. */
  name?: string;
  /** Default `unknown`, as client-go says when it has no version. */
  version?: string;
}

const GO_OS: Readonly<Record<string, string>> = { win32: 'windows' };
const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386' };

/**
 * `<program>/<version> (<os>/<arch>) ctrlkit/<version>`, e.g.
 * `ctrlkit-virtual-kubelet/0.3.0 (linux/amd64) ctrlkit/0.0.0`: client-go's
 * `DefaultKubernetesUserAgent` with ctrlkit in place of `kubernetes/<commit>`, the OS and
 * architecture named as Go names them. The apiserver records the part before the first
 * `/` as the field manager of writes that name none (`metadata.managedFields[].manager`)
 * and in its audit log.
 */
export function defaultUserAgent(program: ProgramInfo = {}): string {
  const name = program.name ?? programName();
  const version = program.version ?? 'unknown';
  const os = GO_OS[process.platform] ?? process.platform;
  const arch = GO_ARCH[process.arch] ?? process.arch;
  return `${name}/${version} (${os}/${arch}) ctrlkit/${ctrlkitVersion}`;
}

/** The running script's base name without its extension (`node` when there is none, e.g. a REPL). */
export function programName(argv: readonly string[] = process.argv): string {
  const script = argv[1];
  if (script === undefined || script === '') return basename(argv[0] ?? 'node');
  return basename(script).replace(/\.(?:[cm]?js|[cm]?ts)$/, '') || 'node';
}

/** True for a value usable as a header: a non-empty single line. */
export function isHeaderValue(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && !/[\r\n]/.test(value);
}
