//! Go's `regexp.ReplaceAllString` for sprig's `mustRegexReplaceAll`: RE2 syntax read into a JS RegExp, Go's `$` expansion and empty-match rule.

const POSIX: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\t\\n\\v\\f\\r ',
  word: '\\w',
  xdigit: '0-9A-Fa-f',
  punct: '!-\\/:-@\\[-`{-~',
};

/**
 * A JS RegExp for an RE2 pattern: `(?P<name>` groups, a leading `(?flags)` (`i`, `m`, `s`),
 * `\A` and `\z`, and POSIX classes (`[[:alpha:]]`). Throws Go's `error parsing regexp: …`
 * when the pattern does not compile.
 */
export function goRegExp(pattern: string): RegExp {
  let source = pattern;
  let flags = 'gu';
  const leading = /^\(\?([ims]+)\)/.exec(source);
  if (leading) {
    flags += leading[1];
    source = source.slice(leading[0].length);
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$(?![\\s\\S])')
    .replace(/\[:(\w+):\]/g, (whole, name: string) => POSIX[name] ?? whole);
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new Error(
      `error parsing regexp: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`,
    );
  }
}

/** Go's `Regexp.Expand` of `template` for a match: `$1`, `${1}`, `$name`, `${name}`, `$$`. */
function expand(template: string, match: RegExpExecArray): string {
  return template.replace(/\$(\$|\{(\w+)\}|(\w+))?/g, (whole, dollar, braced, bare) => {
    if (dollar === '$') return '$';
    const name: string | undefined = braced ?? bare;
    if (name === undefined) return whole;
    const value = /^\d+$/.test(name) ? match[Number(name)] : match.groups?.[name];
    return value ?? '';
  });
}

/**
 * `re.ReplaceAllString(s, repl)`: every non-overlapping match replaced by `repl` expanded;
 * an empty match right after the previous match is skipped, as in Go.
 */
export function replaceAllString(re: RegExp, s: string, repl: string): string {
  let out = '';
  let copied = 0;
  let lastEnd = -1;
  let pos = 0;
  while (pos <= s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (m === null) break;
    const start = m.index;
    const end = start + m[0].length;
    if (!(end === start && start === lastEnd)) {
      out += s.slice(copied, start) + expand(repl, m);
      copied = end;
    }
    lastEnd = end;
    // After an empty match, step one code point to move on.
    pos = end > start ? end : start + (String.fromCodePoint(s.codePointAt(start) ?? 0).length || 1);
  }
  return out + s.slice(copied);
}
