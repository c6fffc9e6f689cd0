import { describe, expect, it } from 'vitest';
import { isValidTemplate } from '../name-templates.js';
import { TEMPLATE_FUNCTIONS } from './functions.js';
import { NameTemplateError } from './template-error.js';

/** `$`, so that Go's `${1}` needs no template-literal look-alike in a string. */
const $ = '$';
const fields = { VmName: 'My VM', DiskIndex: 2, Shared: true, Empty: '' };
const render = (t: string) => isValidTemplate(t, { typeName: 'Data', fields });
const error = (t: string) => {
  try {
    render(t);
  } catch (e) {
    return NameTemplateError.isInstance(e) ? e.message : `other: ${e}`;
  }
  return 'rendered';
};

/** Each function Forklift's templateutil defines, with a call of it and what it renders. */
const ACCEPTED: Array<[string, string, string]> = [
  // Go's text/template builtins.
  ['and', '{{and 1 "x"}}', 'x'],
  ['or', '{{or 0 "" "y"}}', 'y'],
  ['not', '{{not .Shared}}', 'false'],
  ['len', '{{len .VmName}}', '5'],
  ['index', '{{index "abc" 1}}', '98'],
  ['slice', '{{slice "abcdef" 1 3}}', 'bc'],
  ['print', '{{print 1 2 "a" 3}}', '1 2a3'],
  ['printf', '{{printf "%s-%03d" "d" .DiskIndex}}', 'd-002'],
  ['println', '{{println "a" 1}}', 'a 1\n'],
  ['html', '{{html "<a&b>"}}', '&lt;a&amp;b&gt;'],
  ['js', `{{js "it's"}}`, "it\\'s"],
  ['urlquery', '{{urlquery "a b/c"}}', 'a+b%2Fc'],
  ['eq', '{{eq .DiskIndex 1 2}}', 'true'],
  ['ne', '{{ne .VmName "x"}}', 'true'],
  ['lt', '{{lt 1 2}}', 'true'],
  ['le', '{{le 2 2}}', 'true'],
  ['gt', '{{gt "b" "a"}}', 'true'],
  ['ge', '{{ge 1 2}}', 'false'],
  // sprig's strings (AddStringFuncs).
  ['lower', '{{lower "TEXT"}}', 'text'],
  ['upper', '{{upper "text"}}', 'TEXT'],
  ['contains', '{{contains "lo" "hello"}}', 'true'],
  ['replace', '{{"I Am Henry VIII" | replace " " "-"}}', 'I-Am-Henry-VIII'],
  ['trim', '{{trim "  text  "}}', 'text'],
  ['trimAll', '{{trimAll "$" "$5.00$"}}', '5.00'],
  ['trimSuffix', '{{trimSuffix ".go" "file.go"}}', 'file'],
  ['trimPrefix', '{{trimPrefix "go." "go.file"}}', 'file'],
  ['title', '{{title "hello world"}}', 'Hello World'],
  ['untitle', '{{untitle "Hello World"}}', 'hello world'],
  ['repeat', '{{repeat 3 "abc"}}', 'abcabcabc'],
  ['substr', '{{substr 1 4 "abcdef"}}', 'bcd'],
  ['nospace', '{{nospace "a b  c"}}', 'abc'],
  ['trunc', '{{trunc 3 "abcdef"}}', 'abc'],
  ['initials', '{{initials "John Doe"}}', 'JD'],
  ['hasPrefix', '{{hasPrefix "go" "golang"}}', 'true'],
  ['hasSuffix', '{{hasSuffix "ing" "coding"}}', 'true'],
  ['mustRegexReplaceAll', `{{mustRegexReplaceAll "a(x*)b" "-ab-axxb-" "${$}{1}W"}}`, '-W-xxW-'],
  // sprig's math (AddMathFuncs).
  ['add', '{{add 1 2 3}}', '6'],
  ['add1', '{{add1 5}}', '6'],
  ['sub', '{{sub 5 3}}', '2'],
  ['div', '{{div 10 3}}', '3'],
  ['mod', '{{mod 10 3}}', '1'],
  ['mul', '{{mul 2 3 4}}', '24'],
  ['max', '{{max 1 5 3}}', '5'],
  ['min', '{{min 1 5 3}}', '1'],
  ['floor', '{{floor 3.75}}', '3'],
  ['ceil', '{{ceil 3.25}}', '4'],
  ['round', '{{round 3.75159 2}}', '3.75'],
];

/** sprig functions (and others) Forklift does not add: refused at parse time. */
const REFUSED = [
  'default',
  'cat',
  'quote',
  'squote',
  'toString',
  'regexReplaceAll',
  'regexReplaceAllLiteral',
  'regexMatch',
  'atoi',
  'int',
  'int64',
  'abbrev',
  'snakecase',
  'kebabcase',
  'camelcase',
  'shuffle',
  'randAlphaNum',
  'uuidv4',
  'sha256sum',
  'b64enc',
  'env',
  'expandenv',
  'now',
  'date',
  'list',
  'dict',
  'split',
  'join',
  'toJson',
  'required',
  'fail',
  'ternary',
  'coalesce',
  'empty',
  'addf',
  'mustRegexReplaceAllLiteral',
  'swapcase',
  'wrap',
  'indent',
  'plural',
];

describe("name template functions: exactly Forklift's templateutil set", () => {
  it.each(ACCEPTED)('%s is accepted: %s renders %j', (_name, template, out) => {
    expect(render(template)).toBe(out);
  });

  it('the set is exactly Go’s builtins (but call) and the 29 functions templateutil adds', () => {
    const names = ACCEPTED.map(([name]) => name);
    expect([...TEMPLATE_FUNCTIONS.keys()].sort()).toEqual([...names, 'call'].sort());
  });

  it.each(REFUSED)('%s is refused: function not defined', (name) => {
    expect(error(`{{${name} "a" "b"}}`)).toBe(`template: function "${name}" not defined`);
  });

  it('call is defined, and fails: name template data holds no functions', () => {
    expect(error('{{call .VmName}}')).toBe(
      'template: error calling call: non-function of type string',
    );
  });
});

describe('name template functions: Go and sprig semantics', () => {
  it('strings: bytes for trunc and substr, Go’s panics as errors, Go’s spaces and word rules', () => {
    expect(render('{{trunc -2 "abcd"}}|{{trunc 10 "ab"}}|{{trunc 2 "éa"}}')).toBe('cd|ab|é');
    expect(render('{{substr -1 2 "abc"}}|{{substr 1 -1 "abc"}}|{{substr 1 9 "abc"}}')).toBe(
      'ab|bc|bc',
    );
    expect(error('{{substr -1 5 "abc" | upper}}')).toBe(
      'template: error calling substr: runtime error: slice bounds out of range [:5] with length 3',
    );
    expect(error('{{substr 3 1 "abcd"}}')).toBe(
      'template: error calling substr: runtime error: slice bounds out of range [3:1]',
    );
    expect(error('{{repeat -1 "a"}}')).toBe(
      'template: error calling repeat: strings: negative Repeat count',
    );
    expect(render('{{title "don\'t stop_me now-x"}}')).toBe("Don'T Stop_me Now-X");
    expect(render('{{untitle "ABC DEF\tGHI"}}')).toBe('aBC dEF\tgHI');
    expect(render('{{initials "  multiple   spaces here"}}')).toBe('msh');
    expect(render('{{replace "" "-" "abc"}}')).toBe('-a-b-c-');
    expect(render('{{nospace "a\u0085b\u00a0c"}}|{{trim "\u0085x\u3000"}}')).toBe('abc|x');
    expect(render('{{trimSuffix "" "abc"}}')).toBe('abc');
  });

  it('mustRegexReplaceAll: Go’s $ expansion and empty-match rule; a bad pattern is an error', () => {
    expect(render('{{mustRegexReplaceAll "b*" "abc" "-"}}')).toBe('-a-c-');
    expect(
      render(`{{mustRegexReplaceAll "(?P<first>\\\\w+) (\\\\w+)" "ab cd" "$2 ${$}{first}"}}`),
    ).toBe('cd ab');
    // `$1W` names group "1W", which does not exist: empty, as in Go.
    expect(render('{{mustRegexReplaceAll "a(x*)b" "axb" "<$1W>"}}')).toBe('<>');
    expect(render('{{mustRegexReplaceAll "(?i)VM" .VmName "x"}}')).toBe('My x');
    expect(render('{{mustRegexReplaceAll "[^[:alnum:]]" .VmName "-"}}')).toBe('My-VM');
    expect(error('{{mustRegexReplaceAll "(" "a" "b"}}')).toMatch(
      /^template: error calling mustRegexReplaceAll: error parsing regexp: /,
    );
  });

  it('math: int64 results, float64 from floor, ceil and round, Go’s printing and errors', () => {
    expect(render('{{add "3" 1.9 true}}|{{sub "0x10" 1}}|{{mod -7 2}}|{{div -7 2}}')).toBe(
      '5|15|-1|-3',
    );
    expect(render('{{max "x" -1}}|{{min 2 .DiskIndex 7}}|{{mul 2}}|{{add}}')).toBe('0|2|2|0');
    expect(
      render('{{floor -3.5}}|{{ceil .DiskIndex}}|{{round 2.5 0}}|{{round 1234567.891 1}}'),
    ).toBe('-4|2|3|1.2345679e+06');
    expect(render('{{round 3.14159 2 0.9}}|{{printf "%.1f" (floor 3.9)}}')).toBe('3.14|3.0');
    expect(error('{{div 1 0}}')).toBe(
      'template: error calling div: runtime error: integer divide by zero',
    );
    expect(error('{{trunc (floor 3.5) "abcd"}}')).toBe(
      'template: executing at <trunc>: wrong type for value; expected int; got float64',
    );
    expect(error('{{eq (floor 2.0) 2}}')).toBe(
      'template: error calling eq: incompatible types for comparison',
    );
    expect(error('{{mul}}')).toBe(
      'template: executing at <mul>: wrong number of args for mul: want at least 1 got 0',
    );
  });

  it('builtins: and/or are lazy, comparisons are typed, index and slice are bytewise', () => {
    expect(render('{{and .Empty (div 1 0)}}x|{{or .Shared (div 1 0)}}')).toBe('x|true');
    expect(error('{{lt .Shared .Shared}}')).toBe(
      'template: error calling lt: invalid type for comparison',
    );
    expect(error('{{eq .DiskIndex}}')).toBe(
      'template: error calling eq: missing argument for comparison',
    );
    expect(error('{{len .DiskIndex}}')).toBe('template: error calling len: len of type int');
    expect(error('{{index "abc" 3}}')).toBe('template: error calling index: index out of range: 3');
    expect(error('{{index "abc" 0 0}}')).toBe(
      "template: error calling index: can't index item of type uint8",
    );
    expect(error('{{slice "abc" 2 1}}')).toBe(
      'template: error calling slice: invalid slice index: 2 > 1',
    );
    expect(error('{{slice "abc" 0 1 2}}')).toBe(
      'template: error calling slice: cannot 3-index slice a string',
    );
    expect(render('{{js "<x=y>"}}|{{html "\'\\""}}')).toBe('\\u003Cx\\u003Dy\\u003E|&#39;&#34;');
  });
});
