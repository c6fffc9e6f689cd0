//! The skeleton of a controller program's `main`: flags, `--help`, a logger, signals, exit codes.

import { InvalidArgumentError, type Logger } from '@ctrlkit/core';
import { setupSignalHandler } from '../manager/signals.js';

/** A program for {@link runMain}. */
export interface MainProgram<F extends { help: boolean }, L extends Logger> {
  /** Parses the arguments; throws InvalidArgumentError for a bad flag. */
  parse(argv: readonly string[]): F;
  /** The `--help` text, also printed after a bad flag's message. */
  usage(): string;
  /** The program's logger, e.g. `pino({ level: flags.logLevel })`. */
  logger(flags: F): L;
  /** Runs until `signal` aborts (resolve: exit 0) or a fatal error (reject: exit 1). */
  run(flags: F, logger: L, signal: AbortSignal): Promise<void>;
}

/** Where {@link runMain} reads and writes; the defaults are the process's. */
export interface MainIo {
  argv: readonly string[];
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** The signal that stops `run`; default {@link setupSignalHandler}. */
  signal(): AbortSignal;
  /** Ends the process at once; called only once `run` was entered. */
  exit(code: number): void;
}

const processIo = (): MainIo => ({
  argv: process.argv.slice(2),
  stdout: process.stdout,
  stderr: process.stderr,
  signal: () => setupSignalHandler(),
  exit: (code) => process.exit(code),
});

/**
 * Runs `program` as a process's `main` and resolves to its exit code: 2 after a bad flag
 * (its message and the usage on stderr), 0 after `--help` (the usage on stdout), else 0 when
 * `run` resolves and 1 when it rejects (the error logged) or something unexpected throws (its
 * stack on stderr). Once `run` was entered it also calls `io.exit` with the code, so that
 * lingering keep-alive sockets do not hold the process. Use as
 * `process.exitCode = await runMain(program)`.
 */
export async function runMain<F extends { help: boolean }, L extends Logger>(
  program: MainProgram<F, L>,
  io: Partial<MainIo> = {},
): Promise<number> {
  const { argv, stdout, stderr, signal, exit } = { ...processIo(), ...io };
  let ran = false;
  let code: number;
  try {
    code = await main();
  } catch (error) {
    stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    code = 1;
  }
  if (ran) exit(code);
  return code;

  async function main(): Promise<number> {
    let flags: F;
    try {
      flags = program.parse(argv);
    } catch (error) {
      if (!InvalidArgumentError.isInstance(error)) throw error;
      stderr.write(`${error.message}\n\n${program.usage()}`);
      return 2;
    }
    if (flags.help) {
      stdout.write(program.usage());
      return 0;
    }
    const logger = program.logger(flags);
    const stop = signal();
    ran = true;
    try {
      await program.run(flags, logger, stop);
    } catch (error) {
      logger.error({ err: error }, 'stopped with an error');
      return 1;
    }
    return 0;
  }
}
