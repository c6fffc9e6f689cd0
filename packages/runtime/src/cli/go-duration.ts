//! Go's `time.Duration` text (`1m30s`, `500ms`, `1.5h`) to and from milliseconds.

/** Milliseconds per unit of Go's `time.ParseDuration`. */
const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** One `<number><unit>` of a duration: a decimal number (`1`, `1.5`, `.5`, `1.`) and a unit. */
const TERM = /^(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;

/**
 * The milliseconds of a Go duration string as `time.ParseDuration` reads it: an optional sign,
 * then one or more decimal numbers each with a unit (`ns`, `us`/`µs`, `ms`, `s`, `m`, `h`),
 * e.g. `300ms`, `-1.5h`, `2h45m`; a bare `0` is zero. `undefined` when `text` is not one.
 */
export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let ms = 0;
  while (rest !== '') {
    const term = TERM.exec(rest);
    if (term === null) return undefined;
    const [whole, number = '', unit = ''] = term;
    ms += Number(number) * (UNIT_MS[unit] ?? Number.NaN);
    rest = rest.slice(whole.length);
  }
  return Number.isFinite(ms) ? sign * ms : undefined;
}

/**
 * `ms` as Go's `Duration.String` prints it: `0s`; under a second in the largest unit that
 * keeps it whole or short (`500ms`, `1.5µs`); else hours, minutes and seconds with zero
 * minutes and seconds kept (`1m0s`, `1h0m0s`, `1m30.5s`).
 */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1000) {
    const [value, unit] =
      abs >= 1 ? [abs, 'ms'] : abs >= 1e-3 ? [abs * 1e3, 'µs'] : [abs * 1e6, 'ns'];
    return `${sign}${trimmed(value)}${unit}`;
  }
  const hours = Math.floor(abs / 3_600_000);
  const minutes = Math.floor((abs % 3_600_000) / 60_000);
  const seconds = (abs % 60_000) / 1000;
  const secondsText = `${trimmed(seconds)}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${secondsText}`;
  if (minutes > 0) return `${sign}${minutes}m${secondsText}`;
  return `${sign}${secondsText}`;
}

/** `value` with at most 9 decimals and no trailing zeros (`1.5`, `30`). */
function trimmed(value: number): string {
  return String(Number(value.toFixed(9)));
}
