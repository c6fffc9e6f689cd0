//! A program's command line as a table: every flag with its type, default, help, alias and environment variable.

import { parseArgs } from 'node:util';
import { InvalidArgumentError } from '@ctrlkit/core';

/** The kinds of flag value: text, on/off, or a whole number. */
export type FlagType = 'string' | 'boolean' | 'integer';

/** The value a flag of each {@link FlagType} parses to. */
export interface FlagValueTypes {
  string: string;
  boolean: boolean;
  integer: number;
}

/** One flag of a {@link FlagTable}. */
export interface FlagSpec<T extends FlagType = FlagType> {
  readonly type: T;
  /** The value when neither the flag, its alias nor its `env` is given; a boolean defaults to false. */
  readonly default?: FlagValueTypes[T];
  /** One line of `--help`, without the default (the usage text appends it). */
  readonly help: string;
  /** Another spelling of the flag (`metrics-addr` for `metrics-bind-address`), without dashes. */
  readonly alias?: string;
  /** An environment variable read when the flag is not given, e.g. `NODE_NAME`. */
  readonly env?: string;
  /** The smallest value an integer flag accepts. */
  readonly min?: number;
}

/** Every flag of a program by its name without dashes, in `--help` order. */
export type FlagTable = Readonly<
  Record<string, FlagSpec<'string'> | FlagSpec<'boolean'> | FlagSpec<'integer'>>
>;

/** What {@link parseFlagTable} returns for `T`: each flag's value, `undefined` for a value flag without default that was not given. */
export type FlagValues<T extends FlagTable> = {
  -readonly [K in keyof T]: T[K] extends FlagSpec<infer V>
    ? T[K] extends { default: FlagValueTypes[V] }
      ? FlagValueTypes[V]
      : V extends 'boolean'
        ? boolean
        : FlagValueTypes[V] | undefined
    : never;
};

/**
 * Parses `argv` (without node and script) against `table`: a flag, else its alias, else its
 * `env` variable, else its default. `--no-<flag>` turns a boolean off. Throws
 * InvalidArgumentError with field `flags` for an unknown flag or a missing value, and naming
 * the flag as `--name` for a malformed value or a flag and alias that disagree.
 */
export function parseFlagTable<T extends FlagTable>(
  table: T,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): FlagValues<T> {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const [name, spec] of Object.entries(table)) {
    const type = spec.type === 'boolean' ? 'boolean' : 'string';
    options[name] = { type };
    if (spec.alias !== undefined) options[spec.alias] = { type };
  }
  let given: Record<string, string | boolean | undefined>;
  try {
    given = parseArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals: false,
      allowNegative: true,
    }).values;
  } catch (error) {
    throw new InvalidArgumentError('flags', (error as Error).message);
  }
  const values: Record<string, string | boolean | number | undefined> = {};
  for (const [name, spec] of Object.entries(table)) {
    values[name] = flagValue(name, spec, given, env);
  }
  return values as FlagValues<T>;
}

function flagValue(
  name: string,
  spec: FlagSpec,
  given: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv,
): string | boolean | number | undefined {
  const own = given[name];
  const alias = spec.alias === undefined ? undefined : given[spec.alias];
  if (own !== undefined && alias !== undefined && own !== alias) {
    throw new InvalidArgumentError(
      `--${name}`,
      `--${name} and --${spec.alias} disagree (${own} vs ${alias})`,
    );
  }
  const fromEnv = spec.env === undefined ? undefined : env[spec.env];
  const value = own ?? alias ?? fromEnv;
  if (value === undefined) return spec.default ?? (spec.type === 'boolean' ? false : undefined);
  if (spec.type === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    throw new InvalidArgumentError(
      `--${name}`,
      `must be true or false, got ${JSON.stringify(value)}`,
    );
  }
  if (spec.type === 'string') return value as string;
  const text = value as string;
  const n = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n) || n < (spec.min ?? -Infinity)) {
    const bound = spec.min === undefined ? '' : ` >= ${spec.min}`;
    throw new InvalidArgumentError(
      `--${name}`,
      `must be an integer${bound}, got ${JSON.stringify(text)}`,
    );
  }
  return n;
}

/** How {@link flagUsage} lays out `--help`. */
export interface UsageOptions {
  /** The lines before the flags: `Usage: …`, a description. */
  header: readonly string[];
  /** The column where each flag's help starts. */
  column: number;
  /** Shown after a value flag's name; default `<value>`, empty for none. */
  placeholder?: string;
  /** Show defaults of value flags as JSON strings (`"8"`) rather than bare (`8`). */
  quoteDefaults?: boolean;
}

/**
 * The `--help` text of `table`: the header, `Flags:`, then one line per flag with its alias,
 * its help and `(default …)` (`(none)` where there is none).
 */
export function flagUsage(table: FlagTable, options: UsageOptions): string {
  const placeholder = options.placeholder ?? '<value>';
  const lines = [...options.header, '', 'Flags:'];
  for (const [name, spec] of Object.entries(table)) {
    const names = spec.alias === undefined ? `--${name}` : `--${name}, --${spec.alias}`;
    const value = spec.type === 'boolean' || placeholder === '' ? '' : ` ${placeholder}`;
    const fallback = spec.default ?? (spec.type === 'boolean' ? false : undefined);
    const shown =
      fallback === undefined
        ? '(none)'
        : options.quoteDefaults && spec.type !== 'boolean'
          ? JSON.stringify(String(fallback))
          : String(fallback);
    lines.push(
      `${`  ${names}${value}`.padEnd(options.column - 1)} ${spec.help} (default ${shown})`,
    );
  }
  return `${lines.join('\n')}\n`;
}
