// Running a bin on an older Node than its engines field allows: the one set-up of the bins'
// Node-version tests.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { nodeVersionProblem } from '../node-version.js';

/** Where {@link olderNode} looks for an older Node: the machine's own, `/usr/bin/node`. */
export const OLDER_NODE_PATH = '/usr/bin/node';

/** A Node binary older than some `engines.node`, found by {@link olderNode}. */
export interface OlderNode {
  /** Its path. */
  path: string;
  /** Its version, without the `v` (`20.19.5`). */
  version: string;
}

/** What a bin wrote and how it exited, from {@link runOnOlderNode}. */
export interface OlderNodeRun {
  stdout: string;
  stderr: string;
  /** Exit code; null when it was killed (e.g. by the 30 s timeout). */
  status: number | null;
}

/**
 * The Node at `path` (default {@link OLDER_NODE_PATH}) when it exists and is older than
 * `engines` (`>=X.Y.Z`) allows, so a test can skip when it returns undefined.
 *
 * Errors: `Error` naming `engines` when it is not of the form `>=X.Y.Z`.
 */
export function olderNode(engines: string, path: string = OLDER_NODE_PATH): OlderNode | undefined {
  if (!existsSync(path)) return undefined;
  const version = spawnSync(path, ['-p', 'process.versions.node'], {
    encoding: 'utf8',
  }).stdout.trim();
  return nodeVersionProblem('node', engines, version) === undefined ? undefined : { path, version };
}

/** Runs the script `bin` with `args` (default `--help`) on `node`; waits at most 30 s. */
export function runOnOlderNode(
  node: OlderNode,
  bin: string,
  args: readonly string[] = ['--help'],
): OlderNodeRun {
  const run = spawnSync(node.path, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { stdout: run.stdout, stderr: run.stderr, status: run.status };
}
