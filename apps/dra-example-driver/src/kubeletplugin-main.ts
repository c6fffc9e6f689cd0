#!/usr/bin/env node
//! ctrlkit-dra-example-kubeletplugin's entry: checks that this Node is one the package supports, then loads the program.
// Static imports are hoisted and the program's import a newer Node's features at load, so
// this module imports only the check and the engines field; the program comes after.

import { requireNodeVersion } from '@ctrlkit/core/node-version';
import packageJson from '../package.json' with { type: 'json' };

requireNodeVersion('ctrlkit-dra-example-kubeletplugin', packageJson.engines.node);
await import('./kubeletplugin/main.js');
