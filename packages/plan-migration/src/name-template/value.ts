//! The values a name template computes with, and how Go's fmt prints them.

/** A Go `float64` (sprig's `floor`, `ceil`, `round`; a literal such as `3.5`), told apart from an `int`. */
export class GoFloat {
  /**
   * @param value the number.
   * @param literal whether it is a constant of the template text (`3.0`): Go passes an
   *   integral constant to an `int` parameter.
   */
  constructor(
    readonly value: number,
    readonly literal = false,
  ) {}
}

/** A value a template computes with: a Go `string`, `int` (a JS integer), `bool` or `float64`. */
export type TemplateValue = string | number | boolean | GoFloat;

/** Go's name of the type of `v`, as its error messages print it. */
export function goTypeName(v: TemplateValue | undefined): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof GoFloat) return 'float64';
  return 'int';
}

/** A float64 as `strconv.FormatFloat(x, 'g', -1, 64)` prints it, switching to `e` notation at `eprec`. */
export function formatFloat(x: number, eprec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa = '', exp = '0'] = x.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= eprec) {
    const sign = e < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  // toFixed keeps the shortest digits of the mantissa, without e notation.
  const digits = mantissa.replace(/^-/, '').replace('.', '').length;
  return x.toFixed(Math.max(0, digits - 1 - e));
}

/** How `fmt` prints a value with `%v` (and `print`, and an action's output). */
export function formatValue(v: TemplateValue): string {
  return v instanceof GoFloat ? formatFloat(v.value, 6) : String(v);
}

/** Go's truth of a value: false, 0 and "" are false. */
export function truth(v: TemplateValue): boolean {
  if (v instanceof GoFloat) return v.value !== 0;
  return v !== false && v !== 0 && v !== '';
}
