import type { Options } from 'tsup';

/** Builds a package's tsup config from the shared preset; `overrides` are applied last. */
export function ctrlkitTsupConfig(entry: string[], overrides?: Options): Options;
