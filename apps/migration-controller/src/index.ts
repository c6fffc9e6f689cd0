/**
 * `@ctrlkit/migration-controller`: the wiring of `ctrlkit-migration-controller` and
 * `ctrlkit-migrate`, importable for tests and demos. The controllers are
 * `@ctrlkit/plan-migration`'s; here are the flag tables, {@link buildControllerManager} (the
 * Plan, Migration, Provider, map and Hook controllers on one runtime `Manager`), the source
 * wiring by provider type, and the `migrate` command ({@link runMigrate}) with its status
 * table; and `ctrlkit-forklift-api`, Forklift's forklift-api admission webhooks
 * ({@link forkliftApiWebhooks}: the Plan, Provider, Migration and Hook admitters, the Plan
 * and Provider mutators; {@link buildForkliftApiManager}; the generated configurations,
 * {@link forkliftApiWebhookConfigurations}).
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
  DEFAULT_FORKLIFT_API_PORT,
  DEFAULT_LEADER_ELECTION_ID,
  DEFAULT_OVA_CATALOG_PATH,
  FLAGS,
  type Flags,
  FORKLIFT_API_FLAGS,
  type ForkliftApiFlags,
  forkliftApiUsage,
  parseFlags,
  parseForkliftApiFlags,
  usage,
} from './flags.js';
export type {
  ForkliftApiClient,
  ForkliftApiContext,
} from './forklift-api/forklift-api-client.js';
export {
  buildForkliftApiManager,
  FORKLIFT_API_PROGRAM_NAME,
  type ForkliftApiManager,
} from './forklift-api/forklift-api-manager.js';
export {
  FORKLIFT_API_PATHS,
  FORKLIFT_API_TIMEOUT_SECONDS,
  forkliftApiWebhooks,
} from './forklift-api/forklift-api-webhooks.js';
export {
  FORKLIFT_API_SERVICE,
  type ForkliftApiWebhookConfigurationOptions,
  forkliftApiWebhookConfigurations,
  REGENERATE_WEBHOOK_CONFIGURATION_COMMAND,
  WEBHOOK_CONFIGURATION_PATH,
} from './forklift-api/webhook-configuration.js';
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
