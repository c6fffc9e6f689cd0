import type { UserConfig } from 'vitest/config';

/** Builds a package's vitest config from the shared preset; `overrides` are merged last. */
export function ctrlkitVitestConfig(overrides?: UserConfig): UserConfig;

/**
 * A package config with a `unit` project and an `integration` project (`*.int.test.ts`)
 * that gets one real control plane for the run from `globalSetup`.
 */
export function ctrlkitVitestProjects(
  globalSetup: string,
  integration?: NonNullable<UserConfig['test']>,
): UserConfig;
