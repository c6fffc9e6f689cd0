// The strings Go's encoding/json writes for metav1.Time, metav1.MicroTime and metav1.Duration.

/** Unix seconds of Go's zero time.Time (January 1, year 1, UTC), which JSON writes as null. */
export const GO_ZERO_TIME_SECONDS = -62135596800;

let lastSeconds = Number.NaN;
let lastSecondsText = '';

/** `yyyy-mm-ddThh:mm:ss` (UTC, no zone) of `seconds` since the epoch. */
function dateTime(seconds: number): string {
  if (seconds === lastSeconds) return lastSecondsText;
  const iso = new Date(seconds * 1000).toISOString();
  // toISOString writes years outside 0..9999 as ±yyyyyy; Go writes the plain number.
  const text = iso.length === 24 ? iso.slice(0, 19) : goYear(iso);
  lastSeconds = seconds;
  lastSecondsText = text;
  return text;
}

function goYear(iso: string): string {
  const sign = iso[0] === '-' ? '-' : '';
  const dash = iso.indexOf('-', 1);
  const year = String(Number(iso.slice(1, dash))).padStart(4, '0');
  return `${sign}${year}${iso.slice(dash, dash + 15)}`;
}

let lastTimeSeconds = Number.NaN;
let lastTimeText = '';

/** metav1.Time: RFC 3339 in UTC, whole seconds (`2026-11-26T01:02:03Z`). */
export function formatTime(seconds: number): string {
  // Objects made together share their timestamps: one string for a run of them.
  if (seconds !== lastTimeSeconds) {
    lastTimeText = `${dateTime(seconds)}Z`;
    lastTimeSeconds = seconds;
  }
  return lastTimeText;
}

/** metav1.MicroTime: RFC 3339 in UTC with six fractional digits. */
export function formatMicroTime(seconds: number, nanos: number): string {
  const micros = Math.trunc(nanos / 1000);
  return `${dateTime(seconds)}.${String(micros).padStart(6, '0')}Z`;
}

/** Go's time.Duration.String of `ns` nanoseconds (`1h2m3.5s`, `1.5ms`, `0s`). */
export function formatDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  const u = ns < 0n ? -ns : ns;
  if (u < 1_000_000_000n) {
    if (u < 1_000n) return `${sign}${u}ns`;
    if (u < 1_000_000n) return `${sign}${fraction(u, 3)}µs`;
    return `${sign}${fraction(u, 6)}ms`;
  }
  const totalSeconds = u / 1_000_000_000n;
  const seconds = `${totalSeconds % 60n}${fractionDigits(u % 1_000_000_000n, 9)}s`;
  const minutes = totalSeconds / 60n;
  if (minutes === 0n) return `${sign}${seconds}`;
  const hours = minutes / 60n;
  if (hours === 0n) return `${sign}${minutes}m${seconds}`;
  return `${sign}${hours}h${minutes % 60n}m${seconds}`;
}

/** `v / 10^digits` with its fraction, trailing zeros dropped (`1500, 3` → `1.5`). */
function fraction(v: bigint, digits: number): string {
  const scale = 10n ** BigInt(digits);
  return `${v / scale}${fractionDigits(v % scale, digits)}`;
}

function fractionDigits(frac: bigint, digits: number): string {
  if (frac === 0n) return '';
  return `.${String(frac).padStart(digits, '0').replace(/0+$/, '')}`;
}
