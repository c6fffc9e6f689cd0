// ctrlkit-migration-controller, ctrlkit-migrate and ctrlkit-forklift-api run by an older Node than its engines field allows: one sentence naming the Node
// it needs, exit 1 (not a crash inside a dependency at import). Uses the machine's /usr/bin/node
// when that is such a Node; skipped otherwise.
import { fileURLToPath } from 'node:url';
import { olderNode, runOnOlderNode } from '@ctrlkit/core/testing';
import { expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };

const older = olderNode(packageJson.engines.node);

it.skipIf(older === undefined)(
  'ctrlkit-migration-controller on /usr/bin/node (an older Node) says which Node it needs and exits 1',
  () => {
    const node = older as NonNullable<typeof older>;
    const run = runOnOlderNode(node, fileURLToPath(new URL('../dist/main.js', import.meta.url)));
    expect(run.stderr).toBe(
      `ctrlkit-migration-controller needs Node >= ${packageJson.engines.node.slice(2)} (this is Node ${node.version})\n`,
    );
    expect(run.stdout).toBe('');
    expect(run.status).toBe(1);
  },
);

it.skipIf(older === undefined)(
  'ctrlkit-migrate on /usr/bin/node (an older Node) says which Node it needs and exits 1',
  () => {
    const node = older as NonNullable<typeof older>;
    const run = runOnOlderNode(node, fileURLToPath(new URL('../dist/migrate.js', import.meta.url)));
    expect(run.stderr).toBe(
      `ctrlkit-migrate needs Node >= ${packageJson.engines.node.slice(2)} (this is Node ${node.version})\n`,
    );
    expect(run.stdout).toBe('');
    expect(run.status).toBe(1);
  },
);

it.skipIf(older === undefined)(
  'ctrlkit-forklift-api on /usr/bin/node (an older Node) says which Node it needs and exits 1',
  () => {
    const node = older as NonNullable<typeof older>;
    const main = fileURLToPath(new URL('../dist/forklift-api-main.js', import.meta.url));
    const run = runOnOlderNode(node, main);
    expect(run.stderr).toBe(
      `ctrlkit-forklift-api needs Node >= ${packageJson.engines.node.slice(2)} (this is Node ${node.version})\n`,
    );
    expect(run.stdout).toBe('');
    expect(run.status).toBe(1);
  },
);
