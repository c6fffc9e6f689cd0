// The Dockerfile, read without a Docker engine: multi-stage, pinned Node base, only the
// `pnpm deploy`ed app in the final stage, a numeric non-root user, the probe port exposed.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkAppDockerfile, readManifests } from '@ctrlkit/app-testing';
import { expect, it } from 'vitest';

const app = join(dirname(fileURLToPath(import.meta.url)), '..');

it('the Dockerfile builds the deployed app into a pinned, non-root runtime stage', async () => {
  const deploy = await readManifests(join(app, 'deploy'));
  expect(await checkAppDockerfile(app, deploy)).toEqual([]);
});
