//! A namespace-aware element tree over fast-xml-parser's ordered output.

import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** An XML element with its namespace resolved. */
export interface XmlElement {
  /** The local name, without prefix. */
  local: string;
  /** The namespace URI, or '' when none is in scope. */
  ns: string;
  /** Attributes by qualified name as written (e.g. `ovf:id`), in document order. */
  attrs: ReadonlyMap<string, string>;
  children: XmlElement[];
  /** The element's own text, trimmed. */
  text: string;
  /** The prefix-to-URI bindings in scope. */
  scope: ReadonlyMap<string, string>;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  preserveOrder: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
});

type Node = Record<string, unknown> & { ':@'?: Record<string, string> };

/**
 * Parses `xml` into its root element. Throws a `SyntaxError` naming the line and column when
 * the document is not well-formed.
 */
export function parseXml(xml: string): XmlElement {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw new SyntaxError(`${msg} (line ${line}, column ${col})`);
  }
  const nodes = parser.parse(xml) as Node[];
  const roots = nodes
    .map((n) => element(n, new Map()))
    .filter((e): e is XmlElement => e !== undefined);
  const root = roots[0];
  if (root === undefined) throw new SyntaxError('no root element');
  return root;
}

function element(node: Node, parentScope: ReadonlyMap<string, string>): XmlElement | undefined {
  const name = Object.keys(node).find((k) => k !== ':@');
  if (name === undefined || name === '#text' || name.startsWith('?') || name === '#comment') {
    return undefined;
  }
  const attrs = new Map(Object.entries(node[':@'] ?? {}).map(([k, v]) => [k, String(v)]));
  const scope = new Map(parentScope);
  for (const [k, v] of attrs) {
    if (k === 'xmlns') scope.set('', v);
    else if (k.startsWith('xmlns:')) scope.set(k.slice(6), v);
  }
  const colon = name.indexOf(':');
  const prefix = colon === -1 ? '' : name.slice(0, colon);
  const content = (node[name] as Node[] | undefined) ?? [];
  const children: XmlElement[] = [];
  let text = '';
  for (const child of content) {
    if ('#text' in child) text += String(child['#text']);
    else {
      const e = element(child, scope);
      if (e !== undefined) children.push(e);
    }
  }
  return {
    local: colon === -1 ? name : name.slice(colon + 1),
    ns: scope.get(prefix) ?? '',
    attrs,
    children,
    text: text.trim(),
    scope,
  };
}

/** The children of `e` with local name `local`. */
export function childrenNamed(e: XmlElement, local: string): XmlElement[] {
  return e.children.filter((c) => c.local === local);
}

/** The first child of `e` with local name `local`. */
export function childNamed(e: XmlElement, local: string): XmlElement | undefined {
  return e.children.find((c) => c.local === local);
}

/**
 * The attribute of local name `local`, in any namespace, the last one when several match (as
 * Go's encoding/xml fills an `xml:"name,attr"` field); undefined when absent.
 */
export function attr(e: XmlElement, local: string): string | undefined {
  let found: string | undefined;
  for (const [k, v] of e.attrs) {
    const colon = k.indexOf(':');
    if ((colon === -1 ? k : k.slice(colon + 1)) === local && !k.startsWith('xmlns')) found = v;
  }
  return found;
}
