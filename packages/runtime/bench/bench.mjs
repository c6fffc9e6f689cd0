// `pnpm --filter @ctrlkit/runtime bench`: the informer bench (run.mjs), the sharding bench
// (sharding.mjs), then the webhook bench (webhook.mjs), each in its own process; with `-- --scale`, the informer's scale curves
// (scale.mjs) instead, the arguments passed on.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const scripts = args.includes('--scale')
  ? ['scale.mjs']
  : ['run.mjs', 'sharding.mjs', 'webhook.mjs'];
for (const script of scripts) {
  const { status, signal } = spawnSync(
    process.execPath,
    ['--expose-gc', join(here, script), ...args],
    { stdio: 'inherit' },
  );
  if (status !== 0) {
    console.error(`bench/${script} exited with ${signal ?? `code ${status}`}`);
    process.exit(status ?? 1);
  }
}
