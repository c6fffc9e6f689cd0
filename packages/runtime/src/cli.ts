/**
 * `@ctrlkit/runtime/cli`: the command line of a controller program, so that an app only
 * declares its flags and its wiring.
 *
 * - {@link FlagTable}: every flag with its type, default, help, alias and environment
 *   variable; {@link parseFlagTable} parses `argv` against it (the result is typed from the
 *   table) and {@link flagUsage} prints the `--help` text.
 * - {@link INSECURE_SKIP_TLS_VERIFY_FLAG}: kubectl's `--insecure-skip-tls-verify`, and
 *   {@link KUBE_API_CONTENT_TYPE_FLAG}: kube-controller-manager's `--kube-api-content-type`,
 *   for the table of a program that talks to a cluster; {@link LOG_LEVEL_FLAG} and
 *   {@link HELP_FLAG}, which every program has; {@link TLS_CERT_FILE_FLAG},
 *   {@link TLS_PRIVATE_KEY_FILE_FLAG} and {@link CERT_DIR_FLAG} for a webhook server's
 *   certificate, resolved by {@link servingCertificateFiles}.
 * - {@link runMain}: the skeleton of `main` ({@link MainProgram}): flags, `--help`, a
 *   logger, signals, exit codes.
 *
 * A first program:
 * ```ts
 * import { type FlagTable, flagUsage, parseFlagTable, runMain } from '@ctrlkit/runtime/cli';
 * import { pino } from 'pino';
 *
 * const FLAGS = {
 *   kubeconfig: { type: 'string', help: 'kubeconfig file' },
 *   'log-level': { type: 'string', default: 'info', help: 'trace, debug, info, warn or error' },
 *   help: { type: 'boolean', help: 'print this help and exit' },
 * } satisfies FlagTable;
 *
 * process.exitCode = await runMain({
 *   parse: (argv) => parseFlagTable(FLAGS, argv),
 *   usage: () => flagUsage(FLAGS, { header: ['Usage: my-controller [flags]'] }),
 *   logger: (flags) => pino({ level: flags['log-level'] }),
 *   run: async (flags, logger, signal) => { await manager.start(signal); },
 * });
 * ```
 *
 * @packageDocumentation
 */

export {
  type FlagSpec,
  type FlagTable,
  type FlagType,
  type FlagValues,
  type FlagValueTypes,
  flagUsage,
  parseFlagTable,
  parseFlagTableWithArgs,
  type UsageOptions,
} from './cli/flags.js';
export { INSECURE_SKIP_TLS_VERIFY_FLAG, KUBE_API_CONTENT_TYPE_FLAG } from './cli/kube-flags.js';
export { type MainIo, type MainProgram, runMain } from './cli/main.js';
export { HELP_FLAG, LOG_LEVEL_FLAG, LOG_LEVELS, type LogLevel } from './cli/program-flags.js';
export {
  CERT_DIR_FLAG,
  type ServingCertificateFiles,
  servingCertificateFiles,
  TLS_CERT_FILE_FLAG,
  TLS_PRIVATE_KEY_FILE_FLAG,
} from './cli/serving-certificate-flags.js';
