/**
 * `@ctrlkit/migration-controller`: the wiring of `ctrlkit-migration-controller` and
 * `ctrlkit-migrate`, importable for tests and demos. The controllers are
 * `@ctrlkit/plan-migration`'s; here are the flag tables, {@link buildControllerManager} (the
 * Plan, Migration, Provider, map and Hook controllers on one runtime `Manager`), the source
 * wiring by provider type, and the `migrate` command ({@link runMigrate}) with its status
 * table.
 *
 * ```ts
 * import { buildControllerManager, parseFlags } from '@ctrlkit/migration-controller';
 *
 * const { manager } = buildControllerManager(parseFlags(process.argv.slice(2)), logger);
 * await manager.start(signal);
 * ```
 *
 * @packageDocumentation
 */

export {
  buildControllerManager,
  type ControllerManager,
  PROGRAM_NAME,
} from './controller-manager.js';
export {
  DEFAULT_LEADER_ELECTION_ID,
  DEFAULT_OVA_CATALOG_PATH,
  FLAGS,
  type Flags,
  parseFlags,
  usage,
} from './flags.js';
export { type MigrateCommand, migrateUsage, parseMigrateArgs, runMigrate } from './migrate-cli.js';
export {
  SIMULATED_SETTINGS,
  type SourceWiring,
  type SourceWiringOptions,
  simulatedSourceOptions,
  sourceWiring,
} from './sources.js';
export {
  formatProgress,
  formatTable,
  renderPlanStatus,
  STATUS_COLUMNS,
  statusRows,
} from './status-table.js';
