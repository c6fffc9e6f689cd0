//! Parsing a Go text/template (the subset name templates use) into a tree: text, actions, pipelines, if/else.

import { NameTemplateError } from './template-error.js';
import { GoFloat, type TemplateValue } from './value.js';

export type { TemplateValue };

/** An operand of a command. */
export type Operand =
  | { kind: 'field'; name: string }
  | { kind: 'dot' }
  | { kind: 'literal'; value: TemplateValue }
  | { kind: 'function'; name: string }
  | { kind: 'pipeline'; pipeline: Pipeline };

/** Commands separated by `|`: each command's result is the next one's last argument. */
export type Pipeline = Operand[][];

/** A node of the tree. */
export type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipeline: Pipeline }
  | { kind: 'if'; condition: Pipeline; whenTrue: Node[]; whenFalse: Node[] };

/** A parsed template. */
export interface ParsedTemplate {
  nodes: Node[];
}

type Token =
  | { t: 'field'; v: string }
  | { t: 'dot' }
  | { t: 'string'; v: string }
  | { t: 'number'; v: number | GoFloat }
  | { t: 'ident'; v: string }
  | { t: '|' }
  | { t: '(' }
  | { t: ')' };

const fail = (message: string): never => {
  throw new NameTemplateError('TemplateNotValid', `template: ${message}`);
};

/** Splits `source` into text and the bodies of its actions, applying `{{-` and `-}}` trims. */
function segments(source: string): Array<{ text: string } | { action: string }> {
  const out: Array<{ text: string } | { action: string }> = [];
  let rest = source;
  let trimNext = false;
  for (;;) {
    const open = rest.indexOf('{{');
    let text = open < 0 ? rest : rest.slice(0, open);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (open < 0) {
      if (text !== '') out.push({ text });
      return out;
    }
    const close = rest.indexOf('}}', open + 2);
    if (close < 0) fail('unclosed action');
    let body = rest.slice(open + 2, close);
    if (/^-\s/.test(body)) {
      text = text.replace(/\s+$/, '');
      body = body.slice(1);
    }
    trimNext = /\s-$/.test(body);
    if (trimNext) body = body.slice(0, -1);
    if (text !== '') out.push({ text });
    body = body.trim();
    if (!(body.startsWith('/*') && body.endsWith('*/'))) out.push({ action: body });
    rest = rest.slice(close + 2);
  }
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;
const NUMBER =
  /^[-+]?(0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)(?![\w.])/;

const ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
};

/** Go's `strconv.Unquote` of a double-quoted string's body: `\n`, `\xHH`, `\ooo`, `\uHHHH`, `\UHHHHHHHH`. */
function unquote(body: string): string {
  return body.replace(
    /\\(?:([abfnrtv\\"])|x([0-9a-fA-F]{2})|([0-7]{3})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.?))/g,
    (_, simple, hex, octal, u4, u8, bad) => {
      if (simple !== undefined) return ESCAPES[simple] as string;
      if (hex !== undefined || octal !== undefined) {
        // A byte: Go would make invalid UTF-8 of a byte above 0x7f, which no name can hold.
        return String.fromCharCode(Number.parseInt(hex ?? octal, hex === undefined ? 8 : 16));
      }
      if (u4 !== undefined || u8 !== undefined)
        return String.fromCodePoint(Number.parseInt(u4 ?? u8, 16));
      return fail(`invalid syntax: unknown escape sequence \\${bad}`);
    },
  );
}

/** A number constant: an int, or (written with `.` or an exponent) a Go float64. */
function numberConstant(text: string): number | GoFloat {
  const sign = text.startsWith('-') ? -1 : 1;
  const digits = text.replace(/^[-+]/, '');
  if (/^0[xX]/.test(digits)) return sign * Number.parseInt(digits.slice(2), 16);
  if (/[.eE]/.test(digits)) return new GoFloat(Number(text), true);
  return Number(text);
}

/** The tokens of an action's body. */
function tokenize(body: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i] as string;
    const rest = body.slice(i);
    if (/\s/.test(c)) i++;
    else if (c === '|' || c === '(' || c === ')') {
      tokens.push({ t: c } as Token);
      i++;
    } else if (c === '.' && !/^\.\d/.test(rest)) {
      const name = IDENT.exec(rest.slice(1))?.[0];
      tokens.push(name === undefined ? { t: 'dot' } : { t: 'field', v: name });
      i += 1 + (name?.length ?? 0);
    } else if (c === '"') {
      const m =
        /^"((?:[^"\\\n]|\\.)*)"/.exec(rest) ?? fail(`unterminated quoted string in {{${body}}}`);
      tokens.push({ t: 'string', v: unquote(m[1] as string) });
      i += m[0].length;
    } else if (c === '`') {
      const end = body.indexOf('`', i + 1);
      if (end < 0) fail(`unterminated raw quoted string in {{${body}}}`);
      tokens.push({ t: 'string', v: body.slice(i + 1, end) });
      i = end + 1;
    } else if (/[-+0-9]/.test(c) || (c === '.' && /^\.\d/.test(rest))) {
      const m =
        NUMBER.exec(rest) ?? fail(`bad number syntax: ${JSON.stringify(rest.split(/\s/)[0])}`);
      tokens.push({ t: 'number', v: numberConstant(m[0]) });
      i += m[0].length;
    } else {
      const m = IDENT.exec(rest);
      if (m === null) return fail(`unexpected "${c}" in {{${body}}}`);
      tokens.push({ t: 'ident', v: m[0] });
      i += m[0].length;
    }
  }
  return tokens;
}

/** Parses the tokens of a pipeline; `known` says whether a function name is defined. */
function pipeline(tokens: Token[], known: (name: string) => boolean, nested = false): Pipeline {
  const commands: Pipeline = [[]];
  for (;;) {
    const token = tokens.shift();
    const command = commands[commands.length - 1] as Operand[];
    if (token === undefined || token.t === ')') {
      if (token === undefined && nested) fail('unclosed left paren');
      if (token !== undefined && !nested) fail('unexpected right paren');
      if (command.length === 0)
        fail(commands.length > 1 ? 'missing command after |' : 'missing value for command');
      return commands;
    }
    if (token.t === '|') {
      if (command.length === 0) fail('missing command before |');
      commands.push([]);
    } else if (token.t === '(')
      command.push({ kind: 'pipeline', pipeline: pipeline(tokens, known, true) });
    else if (token.t === 'field') command.push({ kind: 'field', name: token.v });
    else if (token.t === 'dot') command.push({ kind: 'dot' });
    else if (token.t === 'string' || token.t === 'number')
      command.push({ kind: 'literal', value: token.v });
    else if (token.v === 'true' || token.v === 'false')
      command.push({ kind: 'literal', value: token.v === 'true' });
    else if (known(token.v)) command.push({ kind: 'function', name: token.v });
    else fail(`function "${token.v}" not defined`);
  }
}

/**
 * Parses a Go text/template: text; `{{pipeline}}` whose commands are fields (`.Name`),
 * `.`, string (`"…"`, raw), number and boolean literals, function calls and parenthesized
 * pipelines, chained with `|`; `{{if}}`/`{{else if}}`/`{{else}}`/`{{end}}`; comments and
 * `{{-`/`-}}` trims. Errors as Go's parser words them: {@link NameTemplateError}
 * (`TemplateNotValid`).
 */
export function parseTemplate(source: string, known: (name: string) => boolean): ParsedTemplate {
  const root: Node[] = [];
  // The open ifs: the list nodes go to and the if itself.
  const stack: Array<{ node: Extract<Node, { kind: 'if' }>; inElse: boolean; chained: number }> =
    [];
  let target = root;
  const openIf = (tokens: Token[], chained: number) => {
    const node: Node = {
      kind: 'if',
      condition: pipeline(tokens, known),
      whenTrue: [],
      whenFalse: [],
    };
    target.push(node);
    stack.push({ node, inElse: false, chained });
    target = node.whenTrue;
  };
  for (const seg of segments(source)) {
    if ('text' in seg) {
      target.push({ kind: 'text', text: seg.text });
      continue;
    }
    const tokens = tokenize(seg.action);
    const head = tokens[0];
    const keyword = head?.t === 'ident' ? head.v : undefined;
    if (keyword === 'if') openIf(tokens.slice(1), 0);
    else if (keyword === 'else' || keyword === 'end') {
      const top = stack[stack.length - 1] ?? fail(`unexpected {{${keyword}}}`);
      if (keyword === 'end') {
        if (tokens.length > 1) fail('unexpected tokens after {{end}}');
        stack.splice(stack.length - 1 - top.chained);
        const parent = stack[stack.length - 1];
        target = parent ? (parent.inElse ? parent.node.whenFalse : parent.node.whenTrue) : root;
      } else {
        if (top.inElse) fail('expected end; found {{else}}');
        top.inElse = true;
        target = top.node.whenFalse;
        const next = tokens[1];
        if (next?.t === 'ident' && next.v === 'if') openIf(tokens.slice(2), top.chained + 1);
        else if (tokens.length > 1) fail('unexpected tokens after {{else}}');
      }
    } else if (
      keyword === 'range' ||
      keyword === 'with' ||
      keyword === 'define' ||
      keyword === 'template' ||
      keyword === 'block'
    ) {
      fail(`{{${keyword}}} is not supported in name templates`);
    } else if (tokens.length === 0) fail('missing value for command');
    else target.push({ kind: 'action', pipeline: pipeline(tokens, known) });
  }
  if (stack.length > 0) fail('unexpected EOF: missing {{end}}');
  return { nodes: root };
}
