//! @ctrlkit/migration-controller: the wiring of ctrlkit-migration-controller and ctrlkit-migrate, importable for tests and demos.

export {
  buildControllerManager,
  type ControllerManager,
  USER_AGENT,
} from './controller-manager.js';
export {
  DEFAULT_LEADER_ELECTION_ID,
  DEFAULT_OVA_CATALOG_PATH,
  FLAGS,
  type Flags,
  LOG_LEVELS,
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
