// `pnpm --filter @ctrlkit/dra-resourceslice bench [-- --scale]`: the one-size bench (run.mjs),
// or with --scale the scale curves (scale.mjs).
await import(process.argv.includes('--scale') ? './scale.mjs' : './run.mjs');
