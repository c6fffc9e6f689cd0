import type { Options } from 'tsup';

/**
 * A package's tsup config, as tsup reads it. Opaque on purpose: a package's
 * `tsup.config.ts` can then export it without naming tsup's types (TS2742).
 */
export type CtrlkitTsupConfig = Readonly<Record<string, unknown>>;

/** Builds a package's tsup config from the shared preset; `overrides` are applied last. */
export function ctrlkitTsupConfig(entry: string[], overrides?: Options): CtrlkitTsupConfig;
