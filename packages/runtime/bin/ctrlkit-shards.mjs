#!/usr/bin/env node
// ctrlkit-shards' entry: checks that this Node is one the package supports, then loads the
// program (static imports are hoisted, and the program's would fail on an older Node first).
import { createRequire } from 'node:module';
import { requireNodeVersion } from '@ctrlkit/core/node-version';

const packageJson = createRequire(import.meta.url)('../package.json');
requireNodeVersion('ctrlkit-shards', packageJson.engines.node);
await import('./ctrlkit-shards-main.mjs');
