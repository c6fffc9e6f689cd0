/**
 * `@ctrlkit/core/node-version`: a bin's first check, that the running Node is one its
 * package's `engines.node` allows, so an older Node gets a sentence naming the Node needed
 * instead of a crash inside a dependency at import. Import it alone from a bin's entry
 * (static imports are hoisted: check, then `await import()` the real main). It loads nothing
 * else and runs on any Node with ES modules.
 *
 * A bin's entry, `src/cli.ts`, is then three statements: import this, check
 * `requireNodeVersion('ctrlkit-example', packageJson.engines.node)` (the package.json imported
 * with `with { type: 'json' }`), and `await import('./main.js')`. The check alone:
 *
 * ```ts
 * import { nodeVersionProblem } from '@ctrlkit/core/node-version';
 *
 * const problem = nodeVersionProblem('ctrlkit-example', '>=22.19.0');
 * if (problem !== undefined) process.stderr.write(`${problem}\n`);
 * ```
 *
 * @packageDocumentation
 */

/** `>=MAJOR.MINOR.PATCH`, the one form ctrlkit's `engines.node` fields take. */
const MINIMUM = /^>=\s*(\d+)\.(\d+)\.(\d+)$/;

/**
 * The sentence saying `program` needs a newer Node than `version` (default: the running
 * one), or undefined when `version` satisfies `engines` (`>=X.Y.Z`).
 *
 * Errors: `Error` naming `engines` when it is not of the form `>=X.Y.Z`.
 */
export function nodeVersionProblem(
  program: string,
  engines: string,
  version: string = process.versions.node,
): string | undefined {
  const minimum = MINIMUM.exec(engines.trim());
  if (minimum === null) {
    throw new Error(
      `invalid engines.node of ${program}: ${JSON.stringify(engines)} is not ">=X.Y.Z"`,
    );
  }
  const wanted = minimum.slice(1, 4).map(Number);
  const running = version.replace(/^v/, '').split(/[.-]/).slice(0, 3).map(Number);
  for (let i = 0; i < 3; i++) {
    const have = running[i] ?? 0;
    const need = wanted[i] ?? 0;
    if (have > need) return undefined;
    if (have < need) break;
    if (i === 2) return undefined;
  }
  return `${program} needs Node >= ${wanted.join('.')} (this is Node ${version.replace(/^v/, '')})`;
}

/**
 * Exits the process with code 1, after writing {@link nodeVersionProblem}'s sentence to
 * stderr, when the running Node does not satisfy `engines`; returns otherwise.
 */
export function requireNodeVersion(program: string, engines: string): void {
  const problem = nodeVersionProblem(program, engines);
  if (problem === undefined) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
