//! Go's text/template builtins: comparison, logic, length, index, slice, print, printf, println, escapes and call.

import { sprintf } from './printf.js';
import { fn, type TemplateFunction } from './signature.js';
import { formatValue, GoFloat, goTypeName, type TemplateValue, truth } from './value.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
const fromUtf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

type Basic = 'bool' | 'int' | 'float' | 'string';
const basicKind = (v: TemplateValue): Basic =>
  typeof v === 'string'
    ? 'string'
    : typeof v === 'boolean'
      ? 'bool'
      : v instanceof GoFloat
        ? 'float'
        : 'int';
const raw = (v: TemplateValue) => (v instanceof GoFloat ? v.value : v);

/** Go's `lt` and `eq` of two basic values: -1, 0 or 1; errors for mixed or unordered kinds. */
function compare(a: TemplateValue, b: TemplateValue, ordered: boolean): number {
  if (basicKind(a) !== basicKind(b)) throw new Error('incompatible types for comparison');
  if (ordered && basicKind(a) === 'bool') throw new Error('invalid type for comparison');
  const [x, y] = [raw(a), raw(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** An index argument of `index` or `slice`: an int within `0..cap`. */
function indexArg(v: TemplateValue, cap: number, what: string): number {
  if (typeof v !== 'number') throw new Error(`cannot index ${what} with type ${goTypeName(v)}`);
  if (v < 0 || v > cap) throw new Error(`index out of range: ${v}`);
  return v;
}

/** `fmt.Sprint` of the arguments: a single string as is (the escapers' `evalArgs`). */
function sprint(args: readonly TemplateValue[]): string {
  return args.reduce<string>((out, v, i) => {
    const spaced = i > 0 && typeof v !== 'string' && typeof args[i - 1] !== 'string';
    return out + (spaced ? ' ' : '') + formatValue(v);
  }, '');
}

const HTML: Record<string, string> = {
  '"': '&#34;',
  "'": '&#39;',
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '\0': '\uFFFD',
};
const JS: Record<string, string> = {
  '\\': '\\\\',
  "'": "\\'",
  '"': '\\"',
  '<': '\\u003C',
  '>': '\\u003E',
  '&': '\\u0026',
  '=': '\\u003D',
};
const hex4 = (c: string) =>
  `\\u${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Go's `url.QueryEscape`: unreserved bytes kept, space as `+`, the rest `%XX`. */
function queryEscape(s: string): string {
  let out = '';
  for (const b of utf8(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The builtins of Go's text/template (`and` and `or` evaluate lazily: the executor runs them). */
export const GO_BUILTINS: ReadonlyMap<string, TemplateFunction> = new Map([
  ['and', fn('and', ['any'], (a) => a, 'any')],
  ['or', fn('or', ['any'], (a) => a, 'any')],
  ['not', fn('not', ['any'], (v) => !truth(v))],
  [
    'len',
    fn('len', ['any'], (v) => {
      if (typeof v !== 'string') throw new Error(`len of type ${goTypeName(v)}`);
      return utf8(v).length;
    }),
  ],
  [
    'index',
    fn(
      'index',
      ['any'],
      (item, ...indices) => {
        let v: TemplateValue = item;
        for (const [n, i] of indices.entries()) {
          if (typeof v !== 'string') {
            // Indexing a string gives a byte: Go's uint8.
            throw new Error(`can't index item of type ${n > 0 ? 'uint8' : goTypeName(v)}`);
          }
          const bytes = utf8(v);
          const at = indexArg(i, bytes.length, 'slice/array');
          if (at === bytes.length) throw new Error(`index out of range: ${at}`);
          v = bytes[at] as number;
        }
        return v;
      },
      'any',
    ),
  ],
  [
    'slice',
    fn(
      'slice',
      ['any'],
      (item, ...indices) => {
        if (typeof item !== 'string')
          throw new Error(`can't slice item of type ${goTypeName(item)}`);
        if (indices.length > 2) throw new Error('cannot 3-index slice a string');
        const bytes = utf8(item);
        const [from = 0, to = bytes.length] = indices.map((i) =>
          indexArg(i, bytes.length, 'slice/array'),
        );
        if (from > to) throw new Error(`invalid slice index: ${from} > ${to}`);
        return fromUtf8(bytes.slice(from, to));
      },
      'any',
    ),
  ],
  ['print', fn('print', [], (...args) => sprint(args), 'any')],
  ['printf', fn('printf', ['string'], (format, ...args) => sprintf(format, args), 'any')],
  ['println', fn('println', [], (...args) => `${args.map(formatValue).join(' ')}\n`, 'any')],
  [
    'html',
    fn('html', [], (...args) => sprint(args).replace(/["'&<>\0]/g, (c) => HTML[c] ?? c), 'any'),
  ],
  [
    'js',
    fn(
      'js',
      [],
      (...args) =>
        [...sprint(args)].map((c) => JS[c] ?? (c < ' ' || /\p{C}/u.test(c) ? hex4(c) : c)).join(''),
      'any',
    ),
  ],
  ['urlquery', fn('urlquery', [], (...args) => queryEscape(sprint(args)), 'any')],
  [
    'call',
    fn(
      'call',
      ['any'],
      (f) => {
        // Name template data holds no function values, so there is nothing to call.
        throw new Error(`non-function of type ${goTypeName(f)}`);
      },
      'any',
    ),
  ],
  [
    'eq',
    fn(
      'eq',
      ['any'],
      (a, ...rest) => {
        if (rest.length === 0) throw new Error('missing argument for comparison');
        return rest.some((b) => compare(a, b, false) === 0);
      },
      'any',
    ),
  ],
  ['ne', fn('ne', ['any', 'any'], (a, b) => compare(a, b, false) !== 0)],
  ['lt', fn('lt', ['any', 'any'], (a, b) => compare(a, b, true) < 0)],
  ['le', fn('le', ['any', 'any'], (a, b) => compare(a, b, true) <= 0)],
  ['gt', fn('gt', ['any', 'any'], (a, b) => compare(a, b, true) > 0)],
  ['ge', fn('ge', ['any', 'any'], (a, b) => compare(a, b, true) >= 0)],
]);
