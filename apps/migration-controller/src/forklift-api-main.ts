#!/usr/bin/env node
//! ctrlkit-forklift-api's entry: checks that this Node is one the package supports, then loads the program.
// Static imports are hoisted and the program's import a newer Node's features at load, so
// this module imports only the check and the engines field; the program comes after.

import { requireNodeVersion } from '@ctrlkit/core/node-version';
import packageJson from '../package.json' with { type: 'json' };

requireNodeVersion('ctrlkit-forklift-api', packageJson.engines.node);
await import('./forklift-api-program.js');
