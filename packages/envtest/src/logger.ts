//! The small structured logger envtest reports progress to; pino satisfies it.

/** Where envtest reports progress (builds, start, stop). A pino logger satisfies it. */
export interface EnvtestLogger {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

/** Writes `info` and `warn` lines to stderr with an `[envtest]` prefix; drops `debug`. */
export const stderrLogger: EnvtestLogger = {
  info: (message) => process.stderr.write(`[envtest] ${message}\n`),
  warn: (message) => process.stderr.write(`[envtest] warning: ${message}\n`),
  debug: () => {},
};

/** Drops everything. */
export const silentLogger: EnvtestLogger = { info: () => {}, warn: () => {}, debug: () => {} };
