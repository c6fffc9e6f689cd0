/** One Go program tests or benches run: its name, source folder and who uses it. */
export interface GoProgramSpec {
  readonly name: string;
  readonly dir: string;
  readonly kind: 'test' | 'bench';
}

/** The command that builds every Go program (or the named ones) into the cache. */
export const SETUP_COMMAND: string;
/** Every Go program under tooling/go-interop and tooling/go-bench. */
export const GO_PROGRAMS: readonly GoProgramSpec[];
/** `<XDG_CACHE_HOME or ~/.cache>/ctrlkit/go-programs`. */
export function goProgramsCache(env?: NodeJS.ProcessEnv): string;
/** The program named `name`; throws naming the known names when there is none. */
export function goProgramSpec(name: string): GoProgramSpec;
/** Where `name`'s binary is (or will be) built, keyed by a hash of its sources. */
export function goProgramPath(name: string, env?: NodeJS.ProcessEnv): string;
/** The built binary of `name`; throws naming the set-up command when it is missing. */
export function goProgram(name: string, env?: NodeJS.ProcessEnv): string;
/** Builds each named program not yet in the cache (no timeout, with progress). */
export function buildGoPrograms(
  names: readonly string[],
  options?: { log?: (line: string) => void; env?: NodeJS.ProcessEnv },
): Promise<void>;
