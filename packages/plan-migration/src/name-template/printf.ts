//! Go's fmt.Sprintf for the values of a template: %s %d %v %q %x %X %o %b %f %g %t %%, flags, width and precision.

import {
  formatFloat,
  formatValue,
  GoFloat,
  goTypeName as goType,
  type TemplateValue,
} from './value.js';

function pad(s: string, width: number, flags: string, numeric: boolean): string {
  if (s.length >= width) return s;
  if (flags.includes('-')) return s.padEnd(width, ' ');
  if (flags.includes('0') && numeric) {
    const sign = /^[-+ ]/.test(s) ? (s[0] as string) : '';
    return sign + s.slice(sign.length).padStart(width - sign.length, '0');
  }
  return s.padStart(width, ' ');
}

function integer(v: number, verb: string, flags: string): string {
  const radix = { d: 10, x: 16, X: 16, o: 8, b: 2 }[verb] ?? 10;
  let s = Math.abs(v).toString(radix);
  if (verb === 'X') s = s.toUpperCase();
  if (flags.includes('#') && verb === 'x') s = `0x${s}`;
  if (v < 0) return `-${s}`;
  return flags.includes('+') ? `+${s}` : flags.includes(' ') ? ` ${s}` : s;
}

function convert(
  verb: string,
  v: TemplateValue,
  flags: string,
  precision: number | undefined,
): string {
  const bad = `%!${verb}(${goType(v)}=${formatValue(v)})`;
  switch (verb) {
    case 'v':
      return formatValue(v);
    case 's': {
      if (typeof v !== 'string') return bad;
      return precision === undefined ? v : [...v].slice(0, precision).join('');
    }
    case 'q':
      return typeof v === 'string' ? JSON.stringify(v) : bad;
    case 't':
      return typeof v === 'boolean' ? String(v) : bad;
    case 'f':
      return v instanceof GoFloat ? v.value.toFixed(precision ?? 6) : bad;
    case 'g':
      return v instanceof GoFloat ? formatFloat(v.value, 6) : bad;
    case 'x':
    case 'X':
      if (typeof v === 'string')
        return [...new TextEncoder().encode(v)]
          .map((b) => b.toString(16).padStart(2, '0'))
          .join('')
          [verb === 'X' ? 'toUpperCase' : 'toLowerCase']();
      return typeof v === 'number' && Number.isInteger(v) ? integer(v, verb, flags) : bad;
    case 'd':
    case 'o':
    case 'b':
      return typeof v === 'number' && Number.isInteger(v) ? integer(v, verb, flags) : bad;
    default:
      return `%!${verb}(${goType(v)}=${formatValue(v)})`;
  }
}

/** `fmt.Sprintf(format, args...)` as Go prints it, including its `%!verb(type=value)` misuse marks. */
export function sprintf(format: string, args: readonly TemplateValue[]): string {
  let out = '';
  let next = 0;
  const re = /%([-+# 0]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])/g;
  let last = 0;
  for (let m = re.exec(format); m !== null; m = re.exec(format)) {
    out += format.slice(last, m.index);
    last = re.lastIndex;
    const [, flags = '', width, precision, verb = ''] = m;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (next >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const v = args[next++] as TemplateValue;
    const s = convert(verb, v, flags, precision === undefined ? undefined : Number(precision));
    out += pad(
      s,
      width === undefined ? 0 : Number(width),
      flags,
      typeof v === 'number' || v instanceof GoFloat,
    );
  }
  out += format.slice(last);
  if (next < args.length) {
    out += `%!(EXTRA ${args
      .slice(next)
      .map((v) => `${goType(v)}=${formatValue(v)}`)
      .join(', ')})`;
  }
  return out;
}
