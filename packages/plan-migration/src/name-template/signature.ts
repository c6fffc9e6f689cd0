//! A template function's Go signature: the kinds of its parameters, checked before the call as Go's template package does.

import { GoFloat, goTypeName, type TemplateValue } from './value.js';

/** The kind of a parameter: a Go `string`, `int`, `float64`, or `interface{}` (`any`). */
export type Kind = 'string' | 'int' | 'float' | 'any';

type Arg<K extends Kind> = K extends 'string'
  ? string
  : K extends 'int' | 'float'
    ? number
    : TemplateValue;

/** A template function: Go-checked arguments in, a value out; throws an Error with Go's message. */
export interface TemplateFunction {
  /** Checks the arguments' number and kinds (an error as Go words it), then calls. */
  call(args: readonly TemplateValue[]): TemplateValue;
}

const GO_KIND: Record<Kind, string> = {
  string: 'string',
  int: 'int',
  float: 'float64',
  any: 'interface {}',
};

/** A failure of the call itself (Go: `error calling name: …`), as opposed to a bad argument. */
export class CallError extends Error {}

/** An argument checked against `kind`, or undefined when Go would refuse it. */
function convert(kind: Kind, v: TemplateValue): TemplateValue | undefined {
  switch (kind) {
    case 'any':
      return v;
    case 'string':
      return typeof v === 'string' ? v : undefined;
    case 'int':
      if (typeof v === 'number') return v;
      return v instanceof GoFloat && v.literal && Number.isInteger(v.value) ? v.value : undefined;
    case 'float':
      // Go converts a number constant, not an int value; ours cannot tell them apart.
      return typeof v === 'number' ? v : v instanceof GoFloat ? v.value : undefined;
  }
}

/**
 * A function of parameters `kinds` (and, when `rest` is given, any number of further
 * parameters of that kind), whose arguments are checked as Go's template package checks a
 * call: `wrong number of args for name: want 2 got 1`,
 * `wrong type for value; expected string; got int`.
 */
export function fn<const K extends Kind[], R extends Kind | undefined = undefined>(
  name: string,
  kinds: K,
  body: (
    ...args: [...{ [I in keyof K]: Arg<K[I]> }, ...(R extends Kind ? Arg<R>[] : [])]
  ) => TemplateValue,
  rest?: R,
): TemplateFunction {
  return {
    call(args) {
      const ok = rest === undefined ? args.length === kinds.length : args.length >= kinds.length;
      if (!ok) {
        const want = rest === undefined ? `${kinds.length}` : `at least ${kinds.length}`;
        throw new Error(`wrong number of args for ${name}: want ${want} got ${args.length}`);
      }
      const converted = args.map((arg, i) => {
        const kind = (kinds[i] ?? rest) as Kind;
        const value = convert(kind, arg);
        if (value === undefined) {
          throw new Error(
            `wrong type for value; expected ${GO_KIND[kind]}; got ${goTypeName(arg)}`,
          );
        }
        return value;
      });
      try {
        return (body as (...a: TemplateValue[]) => TemplateValue)(...converted);
      } catch (error) {
        throw new CallError(`error calling ${name}: ${(error as Error).message}`);
      }
    },
  };
}
