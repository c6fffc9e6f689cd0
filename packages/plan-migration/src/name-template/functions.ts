//! The functions of name templates: Go's builtins and the sprig functions Forklift's documentation uses.

import type { TemplateValue } from './parse.js';
import { formatValue, sprintf } from './printf.js';

/** A template function; throws an Error whose message Go would give. */
export type TemplateFunction = (...args: TemplateValue[]) => TemplateValue;

type Kind = 'string' | 'int' | 'any';

const typeName = (v: TemplateValue) =>
  typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : 'int';

/** A function of fixed arity whose arguments Go's call checks against its signature. */
function typed<const K extends Kind[]>(
  name: string,
  kinds: K,
  body: (
    ...args: {
      [I in keyof K]: K[I] extends 'string' ? string : K[I] extends 'int' ? number : TemplateValue;
    }
  ) => TemplateValue,
): TemplateFunction {
  return (...args) => {
    if (args.length !== kinds.length) {
      throw new Error(`wrong number of args for ${name}: want ${kinds.length} got ${args.length}`);
    }
    for (const [i, kind] of kinds.entries()) {
      const arg = args[i] as TemplateValue;
      const ok =
        kind === 'any' ||
        (kind === 'string' && typeof arg === 'string') ||
        (kind === 'int' && typeof arg === 'number' && Number.isInteger(arg));
      if (!ok) {
        throw new Error(
          `error calling ${name}: wrong type for value; expected ${kind}; got ${typeName(arg)}`,
        );
      }
    }
    return (body as (...a: TemplateValue[]) => TemplateValue)(...args);
  };
}

/** Go's truth: false, 0 and "" are false. */
export function truth(v: TemplateValue): boolean {
  return v !== false && v !== 0 && v !== '';
}

/** sprig's toInt64 of a value (strings parse, else 0). */
const toInt = (v: TemplateValue): number =>
  typeof v === 'number'
    ? Math.trunc(v)
    : typeof v === 'boolean'
      ? Number(v)
      : Number.parseInt(v, 10) || 0;

function compare(name: string, a: TemplateValue, b: TemplateValue): number {
  if (typeof a !== typeof b)
    throw new Error(`error calling ${name}: incompatible types for comparison`);
  if (typeof a === 'boolean' && name !== 'eq' && name !== 'ne')
    throw new Error(`error calling ${name}: invalid type for comparison`);
  return a < b ? -1 : a > b ? 1 : 0;
}

const codePoints = (s: string) => [...s];

/**
 * The functions name templates may call: Go's `printf`, `print`, `len`, `eq`, `ne`, `lt`,
 * `le`, `gt`, `ge`, `and`, `or`, `not`; sprig's string functions (`lower`, `upper`,
 * `title`, `trim`, `trimAll`, `trimPrefix`, `trimSuffix`, `trunc`, `replace`, `substr`,
 * `repeat`, `nospace`, `contains`, `hasPrefix`, `hasSuffix`, `cat`, `quote`, `squote`,
 * `toString`, `default`, `regexReplaceAll`, `regexReplaceAllLiteral`, `regexMatch`) and
 * integer math (`add`, `add1`, `sub`, `mul`, `div`, `mod`, `max`, `min`, `atoi`, `int`).
 */
export const TEMPLATE_FUNCTIONS: ReadonlyMap<string, TemplateFunction> = new Map<
  string,
  TemplateFunction
>([
  [
    'printf',
    (format, ...args) => {
      if (typeof format !== 'string')
        throw new Error('error calling printf: wrong type for value; expected string');
      return sprintf(format, args);
    },
  ],
  [
    'print',
    (...args) =>
      args.reduce<string>((out, v, i) => {
        const spaced = i > 0 && typeof v !== 'string' && typeof args[i - 1] !== 'string';
        return out + (spaced ? ' ' : '') + formatValue(v);
      }, ''),
  ],
  ['len', typed('len', ['string'], (s) => new TextEncoder().encode(s).length)],
  [
    'eq',
    (a, ...rest) => {
      if (a === undefined || rest.length === 0)
        throw new Error('wrong number of args for eq: want at least 2');
      return rest.some((b) => compare('eq', a, b) === 0);
    },
  ],
  ['ne', typed('ne', ['any', 'any'], (a, b) => compare('ne', a, b) !== 0)],
  ['lt', typed('lt', ['any', 'any'], (a, b) => compare('lt', a, b) < 0)],
  ['le', typed('le', ['any', 'any'], (a, b) => compare('le', a, b) <= 0)],
  ['gt', typed('gt', ['any', 'any'], (a, b) => compare('gt', a, b) > 0)],
  ['ge', typed('ge', ['any', 'any'], (a, b) => compare('ge', a, b) >= 0)],
  ['and', (...args) => args.find((v) => !truth(v)) ?? (args[args.length - 1] as TemplateValue)],
  ['or', (...args) => args.find((v) => truth(v)) ?? (args[args.length - 1] as TemplateValue)],
  ['not', typed('not', ['any'], (v) => !truth(v))],
  ['lower', typed('lower', ['string'], (s) => s.toLowerCase())],
  ['upper', typed('upper', ['string'], (s) => s.toUpperCase())],
  [
    'title',
    typed('title', ['string'], (s) =>
      s.replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_, p: string, c: string) => p + c.toUpperCase()),
    ),
  ],
  ['trim', typed('trim', ['string'], (s) => s.trim())],
  [
    'trimAll',
    typed('trimAll', ['string', 'string'], (cut, s) => {
      const set = new Set(codePoints(cut));
      const chars = codePoints(s);
      let a = 0;
      let b = chars.length;
      while (a < b && set.has(chars[a] as string)) a++;
      while (b > a && set.has(chars[b - 1] as string)) b--;
      return chars.slice(a, b).join('');
    }),
  ],
  [
    'trimPrefix',
    typed('trimPrefix', ['string', 'string'], (p, s) => (s.startsWith(p) ? s.slice(p.length) : s)),
  ],
  [
    'trimSuffix',
    typed('trimSuffix', ['string', 'string'], (x, s) =>
      x !== '' && s.endsWith(x) ? s.slice(0, -x.length) : s,
    ),
  ],
  [
    'trunc',
    typed('trunc', ['int', 'string'], (n, s) =>
      n < 0 ? (s.length + n > 0 ? s.slice(s.length + n) : s) : s.slice(0, n),
    ),
  ],
  ['replace', typed('replace', ['string', 'string', 'string'], (o, n, s) => s.split(o).join(n))],
  [
    'substr',
    typed('substr', ['int', 'int', 'string'], (start, end, s) =>
      start < 0
        ? s.slice(0, end)
        : end < 0 || end > s.length
          ? s.slice(start)
          : s.slice(start, end),
    ),
  ],
  ['repeat', typed('repeat', ['int', 'string'], (n, s) => s.repeat(Math.max(0, n)))],
  ['nospace', typed('nospace', ['string'], (s) => s.replace(/\s+/gu, ''))],
  ['contains', typed('contains', ['string', 'string'], (sub, s) => s.includes(sub))],
  ['hasPrefix', typed('hasPrefix', ['string', 'string'], (p, s) => s.startsWith(p))],
  ['hasSuffix', typed('hasSuffix', ['string', 'string'], (x, s) => s.endsWith(x))],
  ['cat', (...args) => args.map(formatValue).join(' ')],
  ['quote', (...args) => args.map((v) => JSON.stringify(formatValue(v))).join(' ')],
  ['squote', (...args) => args.map((v) => `'${formatValue(v)}'`).join(' ')],
  ['toString', typed('toString', ['any'], formatValue)],
  ['default', typed('default', ['any', 'any'], (d, v) => (truth(v) ? v : d))],
  [
    'regexReplaceAll',
    typed('regexReplaceAll', ['string', 'string', 'string'], (re, s, repl) =>
      s.replace(
        new RegExp(re, 'g'),
        repl.replace(/\$\{(\d+)\}/g, '$$$1').replace(/\$\{(\w+)\}/g, '$$<$1>'),
      ),
    ),
  ],
  [
    'regexReplaceAllLiteral',
    typed('regexReplaceAllLiteral', ['string', 'string', 'string'], (re, s, repl) =>
      s.replace(new RegExp(re, 'g'), () => repl),
    ),
  ],
  ['regexMatch', typed('regexMatch', ['string', 'string'], (re, s) => new RegExp(re).test(s))],
  ['add', (...args) => args.reduce<number>((sum, v) => sum + toInt(v), 0)],
  ['add1', typed('add1', ['any'], (v) => toInt(v) + 1)],
  ['sub', typed('sub', ['any', 'any'], (a, b) => toInt(a) - toInt(b))],
  ['mul', (...args) => args.reduce<number>((p, v) => p * toInt(v), 1)],
  [
    'div',
    typed('div', ['any', 'any'], (a, b) => {
      if (toInt(b) === 0)
        throw new Error('error calling div: runtime error: integer divide by zero');
      return Math.trunc(toInt(a) / toInt(b));
    }),
  ],
  [
    'mod',
    typed('mod', ['any', 'any'], (a, b) => {
      if (toInt(b) === 0)
        throw new Error('error calling mod: runtime error: integer divide by zero');
      return toInt(a) % toInt(b);
    }),
  ],
  ['max', (...args) => Math.max(...args.map(toInt))],
  ['min', (...args) => Math.min(...args.map(toInt))],
  ['atoi', typed('atoi', ['string'], (s) => Number.parseInt(s, 10) || 0)],
  ['int', typed('int', ['any'], toInt)],
]);
