//! Flags every controller program has: `--log-level` and `--help`, spelled and shown the same in each.

import type { FlagSpec } from './flags.js';

/** The levels `--log-level` takes (pino's, lowest first). */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `--log-level`, for a program's flag table: one of {@link LOG_LEVELS}, default `info`. */
export const LOG_LEVEL_FLAG = {
  type: 'string',
  default: 'info',
  choices: LOG_LEVELS,
  help: 'trace, debug, info, warn, error or fatal (JSON lines on stdout)',
} as const satisfies FlagSpec<'string'>;

/** `--help`, for a program's flag table: `runMain` prints the usage and exits 0. */
export const HELP_FLAG = {
  type: 'boolean',
  default: false,
  help: 'print this help and exit',
} as const satisfies FlagSpec<'boolean'>;
