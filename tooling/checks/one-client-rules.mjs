//! What counts as a request path around the one client: the rules of `check:one-client`.
//
// A file is read as text. Its imports are resolved to local bindings (named, namespace,
// default, `await import(...)`, `require(...)`), and each binding's uses are found, so that
// an aliased `import { request as send } from 'node:https'` then `send(...)`, or
// `import * as k8s from '@kubernetes/client-node'` then `new k8s.CoreV1Api(...)`, is caught
// where it is used. Lines that are comments are skipped; a line (or the line above it) with
// `one-client: not the API server (<why>)` is allowed.

const ALLOW = /one-client: not the API server \(.+\)/;
const CLIENT_NODE = '@kubernetes/client-node';
/** HTTP client libraries: importing one at all is an HTTP client of its own. */
const HTTP_LIBRARIES = /^(?:undici|axios|got|node-fetch|superagent|ky|needle|request)$/;
/** Node's HTTP modules and the functions of theirs that send a request. */
const NODE_HTTP = /^(?:node:)?(?:https?|http2)$/;
const HTTP_CALLS = 'request|get|connect';
/** Node's socket modules and the functions of theirs that open a connection. */
const NODE_SOCKET = /^(?:node:)?(?:tls|net)$/;
const SOCKET_CALLS = 'connect|createConnection';

/** Names that, taken from client-node as values, make requests of their own. */
export const CLIENT_NODE_VALUE =
  /^(?:\w+Api|KubernetesObjectApi|Watch|ListWatch|makeInformer|Metrics|Exec|Attach|Log|PortForward|Cp|Health)$/;

/** Patterns matched on each line of code (outside the one client itself). */
const HTTP_LINE_RULES = [
  [
    /\bmakeApiClient\b/,
    "client-node's makeApiClient: use @ctrlkit/client's Client (manager.client, createClient)",
  ],
  [/\bnew RestClient\b|\bRestClient\(/, "RestClient is gone: use @ctrlkit/client's Client"],
  [/\bApiClientFactory\b/, "ApiClientFactory is gone: use @ctrlkit/client's Client"],
  [/(?<![\w.#])fetch\s*\(/, 'fetch: an HTTP client of its own'],
  [
    /\b(?:globalThis|global|self|window)\s*(?:\.\s*fetch\b|\[\s*['"]fetch['"]\s*\])/,
    'globalThis.fetch: an HTTP client of its own',
  ],
  [
    /\b(?:https?|http2)\.(?:request|get|connect)\(/,
    'node:http(s) requests: an HTTP client of its own',
  ],
  [/\b(?:tls|net)\.(?:connect|createConnection)\(/, 'a socket of its own (tls/net connect)'],
];

/** The rule integration tests are held to: the API server through the one client or envtest. */
const INTEGRATION_LINE_RULES = [
  [
    /\bmakeApiClient\b/,
    "client-node's makeApiClient: use createClient from @ctrlkit/client (or manager.client, or envtest's helpers)",
  ],
];

/**
 * One binding a module's import makes: `named` for `{ x as local }` (`imported` is `x`),
 * `whole` for a namespace, default or dynamic import bound to one name.
 */
function bindings(text) {
  const found = [];
  const lineOf = (index) => text.slice(0, index).split('\n').length;
  const addClause = (clause, module, index, typeOnly) => {
    const braces = /\{([^}]*)\}/.exec(clause);
    const rest = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,/g, ' ')
      .trim();
    if (braces) {
      for (const part of braces[1].split(',')) {
        const piece = part.trim();
        if (!piece || typeOnly || piece.startsWith('type ')) continue;
        const [imported, local = imported] = piece.split(/\s+as\s+|\s*:\s*/).map((s) => s.trim());
        found.push({ kind: 'named', module, imported, local, line: lineOf(index) });
      }
    }
    const star = /\*\s+as\s+(\w+)/.exec(rest);
    const plain = /^(\w+)$/.exec(rest.replace(/\*\s+as\s+\w+/, '').trim());
    for (const local of [star?.[1], plain?.[1]]) {
      if (local && !typeOnly) found.push({ kind: 'whole', module, local, line: lineOf(index) });
    }
  };
  const staticImport = /\bimport\s+(type\s+)?([\w$*{}\s,]+?)\s+from\s*['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(staticImport)) addClause(m[2], m[3], m.index, Boolean(m[1]));
  const assigned =
    /\b(?:const|let|var)\s+([\w$]+|\{[^}]*\})\s*=\s*(?:await\s+)?(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(assigned)) addClause(m[1], m[2], m.index, false);
  const anyLoad = /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)(\s*\)?\s*\.\s*(\w+))?/g;
  for (const m of text.matchAll(anyLoad)) {
    found.push({ kind: 'load', module: m[1], member: m[3], line: lineOf(m.index) });
  }
  return found;
}

/** Lines (1-based) where `pattern` matches, skipping the given line (the import itself). */
function usesOf(lines, pattern, skip) {
  const hits = [];
  lines.forEach((line, i) => {
    if (i + 1 !== skip && pattern.test(line)) hits.push(i + 1);
  });
  return hits;
}

const escapeName = (name) => name.replace(/\$/g, '\\$');

/** The offences that come from one binding: [line, why]. */
function bindingOffences(binding, lines, integration) {
  const { kind, module, line } = binding;
  if (module === CLIENT_NODE) {
    if (kind === 'named' && CLIENT_NODE_VALUE.test(binding.imported))
      return [[line, `client-node's ${binding.imported} as a value: use @ctrlkit/client's Client`]];
    if (kind === 'load' && binding.member && CLIENT_NODE_VALUE.test(binding.member))
      return [[line, `client-node's ${binding.member} as a value: use @ctrlkit/client's Client`]];
    if (kind !== 'whole') return [];
    const member = new RegExp(`\\b${escapeName(binding.local)}\\s*\\.\\s*(\\w+)`, 'g');
    return lines.flatMap((text, i) =>
      [...text.matchAll(member)]
        .filter((m) => CLIENT_NODE_VALUE.test(m[1]))
        .map((m) => [
          i + 1,
          `client-node's ${m[1]} (as ${binding.local}.${m[1]}) as a value: use @ctrlkit/client's Client`,
        ]),
    );
  }
  if (integration) return [];
  if (HTTP_LIBRARIES.test(module)) {
    return [[line, `'${module}': an HTTP client library`]];
  }
  const http = NODE_HTTP.test(module);
  const socket = NODE_SOCKET.test(module);
  if (!http && !socket) return [];
  const names = http ? HTTP_CALLS : SOCKET_CALLS;
  const calls = new RegExp(`^(?:${names})$`);
  const why = http
    ? `'${module}' requests: an HTTP client of its own`
    : `a socket of its own ('${module}' connect)`;
  if (kind === 'named') {
    if (!calls.test(binding.imported)) return [];
    const call = new RegExp(`(?<![\\w.$])${escapeName(binding.local)}\\s*\\(`);
    return usesOf(lines, call, line).map((at) => [at, `${why}: ${binding.local}()`]);
  }
  if (kind === 'load') return binding.member && calls.test(binding.member) ? [[line, why]] : [];
  const call = new RegExp(`\\b${escapeName(binding.local)}\\s*\\.\\s*(?:${names})\\s*\\(`);
  return usesOf(lines, call, line).map((at) => [at, why]);
}

/**
 * The offences of one file, as `file:line: why`, sorted by line.
 * @param {string} rel the file's path from the repository root (named in each offence)
 * @param {string} text its contents
 * @param {{ integration?: boolean, theClient?: boolean }} [kind] `integration` for an
 *   `*.int.test.ts` (held to the client-node rules only: an integration test may fetch an
 *   app's /metrics); `theClient` for the one client itself (exempt from the HTTP rules)
 */
export function offences(rel, text, kind = {}) {
  const lines = text.split('\n');
  const isComment = (i) => /^\s*(?:\/\/|\/?\*)/.test(lines[i - 1] ?? '');
  const allowed = (i) => ALLOW.test(lines[i - 1] ?? '') || ALLOW.test(lines[i - 2] ?? '');
  const found = [];
  const lineRules = kind.integration
    ? INTEGRATION_LINE_RULES
    : kind.theClient
      ? []
      : HTTP_LINE_RULES;
  lines.forEach((line, i) => {
    for (const [pattern, why] of lineRules) if (pattern.test(line)) found.push([i + 1, why]);
  });
  for (const binding of bindings(text)) {
    if (kind.theClient && binding.module !== CLIENT_NODE) continue;
    found.push(...bindingOffences(binding, lines, kind.integration === true));
  }
  const seen = new Set();
  return found
    .filter(([at]) => !isComment(at) && !allowed(at))
    .sort((a, b) => a[0] - b[0])
    .map(([at, why]) => `${rel}:${at}: ${why}`)
    .filter((entry) => !seen.has(entry) && seen.add(entry));
}
