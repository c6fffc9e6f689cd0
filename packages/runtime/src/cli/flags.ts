//! A program's command line as a table: every flag with its type, default, help, alias and environment variable.

import { parseArgs } from 'node:util';
import { InvalidArgumentError } from '@ctrlkit/core';
import { formatGoDuration, parseGoDuration } from './go-duration.js';

/**
 * The kinds of flag value: text, on/off, a whole number, any finite number, or a duration
 * (Go's `time.Duration` text such as `30s`, `1m30s`, `500ms`, or a plain number of ms; parsed
 * to ms).
 */
export type FlagType = 'string' | 'boolean' | 'integer' | 'number' | 'duration';

/** The value a flag of each {@link FlagType} parses to. */
export interface FlagValueTypes {
  string: string;
  boolean: boolean;
  integer: number;
  number: number;
  /** Milliseconds. */
  duration: number;
}

/** One flag of a {@link FlagTable}. */
export interface FlagSpec<T extends FlagType = FlagType> {
  readonly type: T;
  /**
   * The value when neither the flag, its alias nor its `env` is given; a boolean defaults to
   * false. `--help` shows it unless it is the type's zero value (`''`, `0`, `false`).
   */
  readonly default?: FlagValueTypes[T];
  /** One line of `--help`, without the default or the environment variable (the usage adds them). */
  readonly help: string;
  /** Another spelling of the flag (`metrics-addr` for `metrics-bind-address`), without dashes. */
  readonly alias?: string;
  /** A one-letter spelling (`n` for `-n`), without the dash. */
  readonly short?: string;
  /** An environment variable read when the flag is not given, e.g. `NODE_NAME`. */
  readonly env?: string;
  /** The smallest value an `integer`, `number` or `duration` (in ms) flag accepts. */
  readonly min?: number;
  /** The largest value an `integer`, `number` or `duration` (in ms) flag accepts. */
  readonly max?: number;
  /** The only values a `string` flag accepts. */
  readonly choices?: readonly string[];
}

/** Every flag of a program by its name without dashes, in `--help` order. */
export type FlagTable = Readonly<
  Record<
    string,
    | FlagSpec<'string'>
    | FlagSpec<'boolean'>
    | FlagSpec<'integer'>
    | FlagSpec<'number'>
    | FlagSpec<'duration'>
  >
>;

/** The value of one flag of spec `S`: one of its `choices` when it has them (declared `as const`). */
type FlagValue<S> =
  S extends FlagSpec<infer V>
    ? S extends { choices: readonly (infer C extends string)[] }
      ? C
      : FlagValueTypes[V]
    : never;

/** What {@link parseFlagTable} returns for `T`: each flag's value, `undefined` for a value flag without default that was not given. */
export type FlagValues<T extends FlagTable> = {
  -readonly [K in keyof T]: T[K] extends { default: string | number | boolean }
    ? FlagValue<T[K]>
    : T[K] extends FlagSpec<'boolean'>
      ? boolean
      : FlagValue<T[K]> | undefined;
};

/**
 * Parses `argv` (without node and script) against `table`: a flag, else its alias, else its
 * `env` variable, else its default. `--no-<flag>` turns a boolean off. Throws
 * InvalidArgumentError with field `flags` for an unknown flag, a positional argument or a
 * missing value, and naming the flag as `--name` for a malformed value (not of its type, out
 * of `min`..`max`, not one of its `choices`) or a flag and alias that disagree. A `duration`
 * takes Go's duration text (`1m30s`, `500ms`, `-1.5h`, `0`) or a plain number of ms (`1500`),
 * so flags that took ms keep working.
 */
export function parseFlagTable<T extends FlagTable>(
  table: T,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): FlagValues<T> {
  return parseCommandLine(table, argv, env, false).flags;
}

/**
 * {@link parseFlagTable} for a program that also takes positional arguments (a command, a
 * name): they come back in `args`, in order, flags between them allowed.
 */
export function parseFlagTableWithArgs<T extends FlagTable>(
  table: T,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { flags: FlagValues<T>; args: string[] } {
  return parseCommandLine(table, argv, env, true);
}

function parseCommandLine<T extends FlagTable>(
  table: T,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  allowPositionals: boolean,
): { flags: FlagValues<T>; args: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, spec] of Object.entries(table)) {
    const type = spec.type === 'boolean' ? 'boolean' : 'string';
    options[name] = spec.short === undefined ? { type } : { type, short: spec.short };
    if (spec.alias !== undefined) options[spec.alias] = { type };
  }
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals,
      allowNegative: true,
    });
  } catch (error) {
    throw new InvalidArgumentError('flags', parseProblem(error as Error & { code?: string }));
  }
  const values: Record<string, string | boolean | number | undefined> = {};
  for (const [name, spec] of Object.entries(table)) {
    values[name] = flagValue(name, spec, parsed.values, env);
  }
  return { flags: values as FlagValues<T>, args: parsed.positionals };
}

/** `parseArgs`' complaint in the words of every other flag error. */
function parseProblem(error: Error & { code?: string }): string {
  const token = /'(-?-?[^' ]+)/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown flag '${token}'`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${token}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return error.message.includes('does not take an argument')
        ? `flag '${token}' takes no value`
        : `flag '${token}' needs a value (--name=-x for a value that starts with a dash)`;
    default:
      return error.message;
  }
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
  const text = value as string;
  if (spec.type === 'string') {
    if (spec.choices !== undefined && !spec.choices.includes(text)) {
      throw new InvalidArgumentError(
        `--${name}`,
        `must be one of ${spec.choices.join(', ')}, got ${JSON.stringify(text)}`,
      );
    }
    return text;
  }
  if (spec.type === 'duration') return durationValue(name, spec, text);
  const n = Number(text);
  const wellFormed =
    spec.type === 'integer'
      ? /^-?\d+$/.test(text) && Number.isSafeInteger(n)
      : /^-?(\d+(\.\d*)?|\.\d+)$/.test(text) && Number.isFinite(n);
  const kind = spec.type === 'integer' ? 'an integer' : 'a number';
  return checkBounds(name, spec, text, wellFormed ? n : undefined, kind, String);
}

/** A `duration` flag's ms: Go's duration text, or a plain number of ms. */
function durationValue(name: string, spec: FlagSpec, text: string): number {
  const ms = /^-?(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : parseGoDuration(text);
  return checkBounds(
    name,
    spec,
    text,
    ms,
    'a duration (e.g. 30s, 1m30s, 500ms, or ms)',
    formatGoDuration,
  );
}

/** `n`, unless it is missing (malformed) or out of `spec`'s bounds: then an error naming the flag. */
function checkBounds(
  name: string,
  spec: FlagSpec,
  text: string,
  n: number | undefined,
  kind: string,
  show: (bound: number) => string,
): number {
  if (n !== undefined && n >= (spec.min ?? -Infinity) && n <= (spec.max ?? Infinity)) return n;
  const bounds = [
    ...(spec.min === undefined ? [] : [`>= ${show(spec.min)}`]),
    ...(spec.max === undefined ? [] : [`<= ${show(spec.max)}`]),
  ];
  throw new InvalidArgumentError(
    `--${name}`,
    `must be ${[kind, bounds.join(' and ')].filter(Boolean).join(' ')}, got ${JSON.stringify(text)}`,
  );
}

/** How {@link flagUsage} introduces the flags. */
export interface UsageOptions {
  /** The lines before the flags: `Usage: …`, a description. */
  header: readonly string[];
}

/** The word after a flag's name in `--help`, as Go's `flag` package prints it. */
const TYPE_NAMES: Record<FlagType, string> = {
  string: ' string',
  boolean: '',
  integer: ' int',
  number: ' float',
  duration: ' duration',
};

/**
 * The `--help` text of `table`, in the layout of Go's `flag.PrintDefaults` (what
 * controller-runtime programs print): the header, `Flags:`, then per flag a line with its
 * spellings and value type (`  -n, --namespace string`, nothing for a boolean), and under it,
 * indented, its help, `(env NAME)` when it reads one, and `(default …)` unless the default is
 * the type's zero value (strings quoted: `(default ":8080")`, durations as Go prints them:
 * `(default 1m0s)`).
 */
export function flagUsage(table: FlagTable, options: UsageOptions): string {
  const lines = [...options.header, '', 'Flags:'];
  for (const [name, spec] of Object.entries(table)) {
    const spellings = [
      ...(spec.short === undefined ? [] : [`-${spec.short}`]),
      `--${name}`,
      ...(spec.alias === undefined ? [] : [`--${spec.alias}`]),
    ];
    lines.push(`  ${spellings.join(', ')}${TYPE_NAMES[spec.type]}`);
    const env = spec.env === undefined ? '' : ` (env ${spec.env})`;
    const shown =
      spec.default === undefined
        ? undefined
        : spec.type === 'duration' && spec.default !== 0
          ? formatGoDuration(spec.default as number)
          : shownDefault(spec.default);
    lines.push(`        ${spec.help}${env}${shown === undefined ? '' : ` (default ${shown})`}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A default as `--help` shows it: quoted text, a bare number or `true`; `undefined` for a zero value. */
function shownDefault(value: string | boolean | number): string | undefined {
  if (value === '' || value === 0 || value === false) return undefined;
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
