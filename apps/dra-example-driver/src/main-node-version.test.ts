// Each of the app's bins run by an older Node than its engines field allows: one sentence naming the Node
// it needs, exit 1 (not a crash inside a dependency at import). Uses the machine's /usr/bin/node
// when that is such a Node; skipped otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nodeVersionProblem } from '@ctrlkit/core/node-version';
import { expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };

const OLD_NODE = '/usr/bin/node';
const oldVersion = existsSync(OLD_NODE)
  ? spawnSync(OLD_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
  : undefined;
const tooOld =
  oldVersion !== undefined &&
  nodeVersionProblem('ctrlkit-dra-example-driver', packageJson.engines.node, oldVersion) !==
    undefined;

for (const [program, entry] of [
  ['ctrlkit-dra-example-driver', 'main.js'],
  ['ctrlkit-dra-example-webhook', 'webhook-main.js'],
  ['ctrlkit-dra-example-kubeletplugin', 'kubeletplugin-main.js'],
] as const) {
  it.skipIf(!tooOld)(
    `${program} on /usr/bin/node (an older Node) says which Node it needs and exits 1`,
    () => {
      const bin = fileURLToPath(new URL(`../dist/${entry}`, import.meta.url));
      const run = spawnSync(OLD_NODE, [bin, '--help'], { encoding: 'utf8', timeout: 30_000 });
      expect(run.stderr).toBe(
        `${program} needs Node >= ${packageJson.engines.node.slice(2)} (this is Node ${oldVersion})\n`,
      );
      expect(run.stdout).toBe('');
      expect(run.status).toBe(1);
    },
  );
}
