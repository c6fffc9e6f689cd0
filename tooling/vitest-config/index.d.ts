import type { UserConfig } from 'vitest/config';

/** Builds a package's vitest config from the shared preset; `overrides` are merged last. */
export function ctrlkitVitestConfig(overrides?: UserConfig): UserConfig;
