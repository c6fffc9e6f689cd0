//! The program skeleton the app's three bins share: flags, a pino logger, one Manager, signals.

import { loadKubeConfig, Manager, type ManagerOptions } from '@ctrlkit/runtime';
import { runMain } from '@ctrlkit/runtime/cli';
import { type Logger, pino } from 'pino';
import packageJson from '../package.json' with { type: 'json' };
import type { ApiFlags, ProgramFlags } from './bin-flags.js';

/** The flags {@link runProgram} reads: the program's, `--kubeconfig` and maybe the other apiserver flags. */
export type RunProgramFlags = ProgramFlags & Pick<ApiFlags, 'kubeconfig'> & Partial<ApiFlags>;

/** One bin of the app, for {@link runProgram}. */
export interface Program<F extends RunProgramFlags> {
  /** The bin's name, `ctrlkit-dra-example-…`; the logger's `app` is it without `ctrlkit-`. */
  name: string;
  /** Parses the arguments; throws InvalidArgumentError for a bad flag. */
  parse(argv: readonly string[]): F;
  /** The `--help` text. */
  usage(): string;
  /** Manager options of this bin beside the shared ones (e.g. its webhook server). */
  managerOptions?(flags: F, logger: Logger): Partial<ManagerOptions>;
  /** Adds the bin's runnables to the manager before it starts. */
  setUp?(manager: Manager, flags: F, logger: Logger): void;
}

/**
 * Runs `program` with `runMain`: a pino logger at `--log-level`, a Manager on the kubeconfig (its
 * client limited to `--kube-api-qps` and `--kube-api-burst` when the bin has them)
 * with the bin's name, the app's version and the metrics and health addresses, until SIGTERM
 * or SIGINT. Resolves to the exit code.
 */
export function runProgram<F extends RunProgramFlags>(program: Program<F>): Promise<number> {
  return runMain({
    parse: (argv) => program.parse(argv),
    usage: program.usage,
    logger: (flags) =>
      pino({ level: flags.logLevel, base: { app: program.name.replace(/^ctrlkit-/, '') } }),
    async run(flags, logger, signal) {
      const manager = new Manager({
        kubeConfig: loadKubeConfig({
          kubeconfig: flags.kubeconfig || undefined,
          ...(flags.insecureSkipTlsVerify !== undefined && {
            insecureSkipTlsVerify: flags.insecureSkipTlsVerify,
          }),
          logger,
        }),
        program: { name: program.name, version: packageJson.version },
        logger,
        metricsBindAddress: flags.metricsBindAddress,
        healthProbeBindAddress: flags.healthProbeBindAddress,
        ...(flags.kubeApiQps !== undefined && { qps: flags.kubeApiQps }),
        ...(flags.kubeApiBurst !== undefined && { burst: flags.kubeApiBurst }),
        ...(flags.kubeApiContentType !== undefined && { contentType: flags.kubeApiContentType }),
        ...program.managerOptions?.(flags, logger),
      });
      program.setUp?.(manager, flags, logger);
      await manager.start(signal);
      logger.info({}, 'exiting');
    },
  });
}
