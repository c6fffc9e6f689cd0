// One control plane and one migration world per fault file of the migration controller, so
// its files run side by side (vitest.config.ts), each fault kind on a plane of its own.

import type { ControlPlane } from '@ctrlkit/envtest';
import { afterAll, beforeAll } from 'vitest';
import { startFaultPlane } from './harness.js';
import { type MigrationWorld, startMigrationWorld } from './migration-world.js';

/** The file's plane and world, readable once the file's `beforeAll` has started them. */
export interface FileWorld {
  readonly plane: ControlPlane;
  readonly world: MigrationWorld;
}

/**
 * Starts a plane (`startPlane`, default {@link startFaultPlane}) and a migration world serving
 * `servers` in the calling file's `beforeAll`, and stops both in its `afterAll`.
 */
export function migrationWorldPerFile(
  servers: readonly string[],
  startPlane: () => Promise<ControlPlane> = startFaultPlane,
): FileWorld {
  let plane: ControlPlane | undefined;
  let world: MigrationWorld | undefined;
  beforeAll(async () => {
    plane = await startPlane();
    world = await startMigrationWorld(plane, [...servers]);
  }, 120_000);
  afterAll(async () => {
    await world?.stop();
    await plane?.stop();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`migrationWorldPerFile: the ${what} is read before beforeAll started it`);
    return value;
  };
  return {
    get plane() {
      return started(plane, 'plane');
    },
    get world() {
      return started(world, 'world');
    },
  };
}
