//! Kubernetes resource quantities compared by value (`1Gi` equals `1024Mi`).

const binary: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimal: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const pattern = /^([+-]?)(\d*)(?:\.(\d*))?(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/;

/** A quantity as the exact rational `numerator / denominator`. */
interface Rational {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

/** Parses a quantity string; undefined when it is not one. */
export function parseQuantity(text: string): Rational | undefined {
  const match = pattern.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exponent, suffix = ''] = match;
  if (whole === '' && fraction === '') return undefined;
  let numerator = BigInt(`${whole}${fraction}` || '0');
  if (sign === '-') numerator = -numerator;
  let exp10 = -fraction.length;
  let exp2 = 0;
  if (exponent !== undefined) exp10 += Number(exponent.slice(1));
  else if (suffix in binary) exp2 = binary[suffix] as number;
  else exp10 += decimal[suffix] as number;
  let denominator = 1n;
  if (exp10 >= 0) numerator *= 10n ** BigInt(exp10);
  else denominator *= 10n ** BigInt(-exp10);
  numerator *= 2n ** BigInt(exp2);
  return { numerator, denominator };
}

/** True when both are quantities of the same value, or the same string. */
export function quantitiesEqual(a: string, b: string): boolean {
  if (a === b) return true;
  const x = parseQuantity(a);
  const y = parseQuantity(b);
  if (x === undefined || y === undefined) return false;
  return x.numerator * y.denominator === y.numerator * x.denominator;
}
