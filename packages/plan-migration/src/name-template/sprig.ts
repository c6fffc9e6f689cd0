//! The sprig functions Forklift's templateutil adds: its string and math functions, with sprig's (v3.3) semantics.

import { goRegExp, replaceAllString } from './go-regexp.js';
import { fn, type TemplateFunction } from './signature.js';
import { GoFloat, type TemplateValue } from './value.js';

/** Go's `unicode.IsSpace`. */
const SPACE =
  '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const isSpace = (c: string) => new RegExp(`^[${SPACE}]$`, 'u').test(c);
const utf8 = (s: string) => new TextEncoder().encode(s);
const fromUtf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Go's `s[from:to]` on the bytes of `s`, with the runtime's panic when out of range. */
function sliceBytes(s: string, from: number | undefined, to: number | undefined): string {
  const bytes = utf8(s);
  const a = from ?? 0;
  const b = to ?? bytes.length;
  if (a < 0 || b < a || b > bytes.length) {
    const range = `[${from ?? ''}:${to ?? ''}]`;
    const withLength = b > bytes.length ? ` with length ${bytes.length}` : '';
    throw new Error(`runtime error: slice bounds out of range ${range}${withLength}`);
  }
  return fromUtf8(bytes.slice(a, b));
}

/** cast.ToInt64: ints as they are, floats truncated, bools 0/1, strings parsed (base prefixes) or 0. */
export function toInt64(v: TemplateValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return Number(v);
  if (v instanceof GoFloat) return Math.trunc(v.value);
  const s = v.replace(/\.0*$/, (z) => (v.length > z.length && z.length > 1 ? '' : z));
  const m = /^([-+]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(s);
  if (m === null) return 0;
  const [, sign = '', digits = ''] = m;
  const clean = digits.replace(/_/g, '');
  const n = /^0\d/.test(clean) ? Number.parseInt(clean, 8) : Number(clean);
  return Number.isNaN(n) ? 0 : sign === '-' ? -n : n;
}

/** cast.ToFloat64: numbers as they are, bools 0/1, strings parsed as Go's ParseFloat or 0. */
export function toFloat64(v: TemplateValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return Number(v);
  if (v instanceof GoFloat) return v.value;
  if (/^[-+]?(inf|infinity)$/i.test(v)) return v.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(v)) return Number.NaN;
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v) ? Number(v) : 0;
}

/** strings.Title: the first letter after a separator (not a letter, digit or `_`; ASCII punctuation) upper-cased. */
function title(s: string): string {
  let prev = ' ';
  let out = '';
  for (const c of s) {
    const separator =
      (prev.codePointAt(0) ?? 0) <= 0x7f
        ? !/[A-Za-z0-9_]/.test(prev)
        : !/[\p{L}\p{N}]/u.test(prev) && isSpace(prev);
    out += separator ? c.toUpperCase() : c;
    prev = c;
  }
  return out;
}

/** goutils.Uncapitalize: the first rune of each whitespace-separated word lower-cased. */
function untitle(s: string): string {
  let next = true;
  let out = '';
  for (const c of s) {
    if (isSpace(c)) {
      next = true;
      out += c;
    } else {
      out += next ? c.toLowerCase() : c;
      next = false;
    }
  }
  return out;
}

/** goutils.Initials: the first byte of each whitespace-separated word (bytewise, as upstream). */
function initials(s: string): string {
  let gap = true;
  let out = '';
  for (const b of utf8(s)) {
    const c = String.fromCharCode(b);
    if (isSpace(c)) gap = true;
    else if (gap) {
      out += c;
      gap = false;
    }
  }
  return out;
}

function replaceAll(s: string, old: string, replacement: string): string {
  if (old !== '') return s.split(old).join(replacement);
  const chars = [...s];
  return replacement + chars.join(replacement) + (chars.length > 0 ? replacement : '');
}

function trimCutset(s: string, cutset: string): string {
  const cut = new Set(cutset);
  const chars = [...s];
  let a = 0;
  let b = chars.length;
  while (a < b && cut.has(chars[a] as string)) a++;
  while (b > a && cut.has(chars[b - 1] as string)) b--;
  return chars.slice(a, b).join('');
}

function divide(name: 'div' | 'mod') {
  return fn(name, ['any', 'any'], (a, b) => {
    const [x, y] = [toInt64(a), toInt64(b)];
    if (y === 0) throw new Error('runtime error: integer divide by zero');
    return name === 'div' ? Math.trunc(x / y) : x % y;
  });
}

/** sprig's round: to `places` decimals, up when the fraction reaches `roundOn` (default .5). */
function round(a: TemplateValue, places: number, ...roundOn: number[]): TemplateValue {
  const pow = 10 ** places;
  const digit = pow * toFloat64(a);
  const fraction = digit - Math.trunc(digit);
  const up = fraction >= (roundOn[0] ?? 0.5);
  return new GoFloat((up ? Math.ceil(digit) : Math.floor(digit)) / pow);
}

/** sprig's string functions that Forklift's templateutil adds (`AddStringFuncs`). */
export const SPRIG_STRING_FUNCTIONS: ReadonlyMap<string, TemplateFunction> = new Map([
  ['lower', fn('lower', ['string'], (s) => s.toLowerCase())],
  ['upper', fn('upper', ['string'], (s) => s.toUpperCase())],
  ['contains', fn('contains', ['string', 'string'], (sub, s) => s.includes(sub))],
  ['replace', fn('replace', ['string', 'string', 'string'], (o, n, s) => replaceAll(s, o, n))],
  [
    'trim',
    fn('trim', ['string'], (s) => s.replace(new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, 'gu'), '')),
  ],
  ['trimAll', fn('trimAll', ['string', 'string'], (cut, s) => trimCutset(s, cut))],
  [
    'trimSuffix',
    fn('trimSuffix', ['string', 'string'], (x, s) =>
      x !== '' && s.endsWith(x) ? s.slice(0, s.length - x.length) : s,
    ),
  ],
  [
    'trimPrefix',
    fn('trimPrefix', ['string', 'string'], (p, s) => (s.startsWith(p) ? s.slice(p.length) : s)),
  ],
  ['title', fn('title', ['string'], title)],
  ['untitle', fn('untitle', ['string'], untitle)],
  [
    'repeat',
    fn('repeat', ['int', 'string'], (n, s) => {
      if (n < 0) throw new Error('strings: negative Repeat count');
      return s.repeat(n);
    }),
  ],
  [
    'substr',
    fn('substr', ['int', 'int', 'string'], (start, end, s) => {
      if (start < 0) return sliceBytes(s, undefined, end);
      if (end < 0 || end > utf8(s).length) return sliceBytes(s, start, undefined);
      return sliceBytes(s, start, end);
    }),
  ],
  ['nospace', fn('nospace', ['string'], (s) => s.replace(new RegExp(`[${SPACE}]`, 'gu'), ''))],
  [
    'trunc',
    fn('trunc', ['int', 'string'], (c, s) => {
      const length = utf8(s).length;
      if (c < 0 && length + c > 0) return sliceBytes(s, length + c, undefined);
      if (c >= 0 && length > c) return sliceBytes(s, undefined, c);
      return s;
    }),
  ],
  ['initials', fn('initials', ['string'], initials)],
  ['hasPrefix', fn('hasPrefix', ['string', 'string'], (p, s) => s.startsWith(p))],
  ['hasSuffix', fn('hasSuffix', ['string', 'string'], (x, s) => s.endsWith(x))],
  [
    'mustRegexReplaceAll',
    fn('mustRegexReplaceAll', ['string', 'string', 'string'], (re, s, repl) =>
      replaceAllString(goRegExp(re), s, repl),
    ),
  ],
]);

/** sprig's math functions that Forklift's templateutil adds (`AddMathFuncs`). */
export const SPRIG_MATH_FUNCTIONS: ReadonlyMap<string, TemplateFunction> = new Map([
  ['add', fn('add', [], (...v) => v.reduce<number>((sum, x) => sum + toInt64(x), 0), 'any')],
  ['add1', fn('add1', ['any'], (v) => toInt64(v) + 1)],
  ['sub', fn('sub', ['any', 'any'], (a, b) => toInt64(a) - toInt64(b))],
  ['div', divide('div')],
  ['mod', divide('mod')],
  [
    'mul',
    fn('mul', ['any'], (a, ...v) => v.reduce<number>((p, x) => p * toInt64(x), toInt64(a)), 'any'),
  ],
  ['max', fn('max', ['any'], (a, ...v) => Math.max(toInt64(a), ...v.map(toInt64)), 'any')],
  ['min', fn('min', ['any'], (a, ...v) => Math.min(toInt64(a), ...v.map(toInt64)), 'any')],
  ['floor', fn('floor', ['any'], (v) => new GoFloat(Math.floor(toFloat64(v))))],
  ['ceil', fn('ceil', ['any'], (v) => new GoFloat(Math.ceil(toFloat64(v))))],
  ['round', fn('round', ['any', 'int'], round, 'float')],
]);
