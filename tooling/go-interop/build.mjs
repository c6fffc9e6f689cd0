#!/usr/bin/env node
// `pnpm setup:go [--tests | name...]`: builds the Go programs tests and benches run into the
// cache (programs.mjs), once; the ones already built for their current sources are skipped.
import { buildGoPrograms, GO_PROGRAMS } from './programs.mjs';

const args = process.argv.slice(2);
const names = args.includes('--tests')
  ? GO_PROGRAMS.filter((p) => p.kind === 'test').map((p) => p.name)
  : args.length > 0
    ? args
    : GO_PROGRAMS.map((p) => p.name);

try {
  await buildGoPrograms(names);
} catch (error) {
  console.error(`✘ ${error.message}`);
  process.exitCode = 1;
}
