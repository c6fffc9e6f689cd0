// The strings Go's encoding/json writes for metav1.Time, metav1.MicroTime and metav1.Duration.

/** Unix seconds of Go's zero time.Time (January 1, year 1, UTC), which JSON writes as null. */
export const GO_ZERO_TIME_SECONDS = -62135596800;

/** Slots of the texts cache: the last text per second modulo this (a power of two). */
const CACHE_SLOTS = 64;

/**
 * Recently made texts by their second: an object's times are few and close together
 * (created, started, each condition's transition), and the objects of a list or a burst of
 * events share them, so most are made once.
 */
class SecondsTexts {
  readonly #seconds = new Float64Array(CACHE_SLOTS).fill(Number.NaN);
  readonly #texts: string[] = new Array<string>(CACHE_SLOTS).fill('');

  constructor(readonly make: (seconds: number) => string) {}

  get(seconds: number): string {
    const slot = seconds & (CACHE_SLOTS - 1);
    if (this.#seconds[slot] === seconds) return this.#texts[slot] as string;
    const text = this.make(seconds);
    this.#seconds[slot] = seconds;
    this.#texts[slot] = text;
    return text;
  }
}

/** `yyyy-mm-ddThh:mm:ss` (UTC, no zone) of `seconds` since the epoch. */
const dateTimes = new SecondsTexts((seconds) => {
  const iso = new Date(seconds * 1000).toISOString();
  // toISOString writes years outside 0..9999 as ±yyyyyy; Go writes the plain number.
  return iso.length === 24 ? iso.slice(0, 19) : goYear(iso);
});

function goYear(iso: string): string {
  const sign = iso[0] === '-' ? '-' : '';
  const dash = iso.indexOf('-', 1);
  const year = String(Number(iso.slice(1, dash))).padStart(4, '0');
  return `${sign}${year}${iso.slice(dash, dash + 15)}`;
}

/** metav1.Time texts: the date and time with `Z`. */
const times = new SecondsTexts((seconds) => `${dateTimes.get(seconds)}Z`);

/** metav1.Time: RFC 3339 in UTC, whole seconds (`2026-11-26T01:02:03Z`). */
export function formatTime(seconds: number): string {
  return times.get(seconds);
}

/** metav1.MicroTime: RFC 3339 in UTC with six fractional digits. */
export function formatMicroTime(seconds: number, nanos: number): string {
  const micros = Math.trunc(nanos / 1000);
  return `${dateTimes.get(seconds)}.${String(micros).padStart(6, '0')}Z`;
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
