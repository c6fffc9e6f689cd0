//! The functions a name template may call: exactly Forklift's (`pkg/templateutil`), Go's builtins plus the sprig functions it adds.

import { GO_BUILTINS } from './builtins.js';
import type { TemplateFunction } from './signature.js';
import { SPRIG_MATH_FUNCTIONS, SPRIG_STRING_FUNCTIONS } from './sprig.js';

/**
 * The functions name templates may call, as Forklift's `templateutil.ExecuteTemplate`
 * defines them: Go's text/template builtins (`and`, `or`, `not`, `len`, `index`, `slice`,
 * `print`, `printf`, `println`, `html`, `js`, `urlquery`, `call`, `eq`, `ne`, `lt`, `le`,
 * `gt`, `ge`), sprig's string functions `lower`, `upper`, `contains`, `replace`, `trim`,
 * `trimAll`, `trimSuffix`, `trimPrefix`, `title`, `untitle`, `repeat`, `substr`,
 * `nospace`, `trunc`, `initials`, `hasPrefix`, `hasSuffix`, `mustRegexReplaceAll`, and its
 * math functions `add`, `add1`, `sub`, `div`, `mod`, `mul`, `max`, `min`, `floor`, `ceil`,
 * `round`. Any other name (sprig's `default`, `quote`, `cat`, `regexReplaceAll`, …) is
 * refused at parse time, as Forklift refuses it.
 */
export const TEMPLATE_FUNCTIONS: ReadonlyMap<string, TemplateFunction> = new Map([
  ...GO_BUILTINS,
  ...SPRIG_STRING_FUNCTIONS,
  ...SPRIG_MATH_FUNCTIONS,
]);
