import type { UserConfig } from 'vitest/config';

/** Builds a package's vitest config from the shared preset; `overrides` are merged last. */
export function ctrlkitVitestConfig(overrides?: UserConfig): UserConfig;

/** How many files of the side-by-side project run at once by default (2). */
export const SIDE_BY_SIDE_WORKERS: number;

/** Integration files that run at once, each with a control plane of its own. */
export interface SideBySideFiles {
  /** Globs of `*.int.test.ts` files (relative to the package) that mostly wait; each gets a control plane. */
  include?: string[];
  /** Globs of files that start their own control plane and never use the shared one; none is started for them. */
  ownControlPlane?: string[];
  /** How many run at once (each with its control plane, ~0.5-1 GB). Default {@link SIDE_BY_SIDE_WORKERS}. */
  maxWorkers?: number;
}

/**
 * A package config with a `unit` project and an `integration` project (`*.int.test.ts`)
 * that gets one real control plane for the run from `globalSetup`; with `sideBySide`, the
 * files it names run at once (`integration-side-by-side`, `integration-own-plane`), each with
 * its own control plane.
 */
export function ctrlkitVitestProjects(
  globalSetup: string,
  integration?: NonNullable<UserConfig['test']>,
  sideBySide?: SideBySideFiles,
): UserConfig;
