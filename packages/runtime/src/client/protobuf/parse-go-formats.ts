// Reads the strings Go's encoding/json writes for metav1.Time, MicroTime and Duration back
// into the numbers protobuf carries (the inverse of go-formats.ts).

const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i;

/**
 * Unix seconds and nanoseconds of an RFC 3339 time, or undefined when it is not one (or,
 * with `micro`, when it has not exactly six fractional digits, as metav1.MicroTime wants).
 */
export function parseTimestamp(
  text: string,
  micro: boolean,
): { seconds: number; nanos: number } | undefined {
  const match = RFC3339.exec(text);
  if (match === null || (micro && match[2]?.length !== 6)) return undefined;
  const ms = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(ms)) return undefined;
  const nanos = match[2] === undefined ? 0 : Number(match[2].padEnd(9, '0'));
  return { seconds: Math.floor(ms / 1000), nanos };
}

const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const DURATION_PART = /(\d+)(?:\.(\d+))?(ns|us|µs|μs|ms|s|m|h)/y;

/** Nanoseconds of a Go duration string (`1h2m3.5s`, `-1.5ms`, `0`), or undefined. */
export function parseDuration(text: string): bigint | undefined {
  const negative = text.startsWith('-');
  const body = text.replace(/^[-+]/, '');
  if (body === '0') return 0n;
  if (body === '') return undefined;
  let total = 0n;
  DURATION_PART.lastIndex = 0;
  while (DURATION_PART.lastIndex < body.length) {
    const match = DURATION_PART.exec(body);
    if (match === null) return undefined;
    const unit = UNIT_NS[match[3]!]!;
    const fraction = match[2] ?? '';
    const scale = 10n ** BigInt(fraction.length);
    total += BigInt(match[1]!) * unit + (BigInt(fraction || '0') * unit) / scale;
  }
  return negative ? -total : total;
}
