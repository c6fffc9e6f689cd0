#!/usr/bin/env node
// pnpm check:one-client
//
// Every request to the API server goes through the runtime's one client (manager.client, or
// createClient(kubeConfig)): rate limit, metrics, User-Agent, keep-alive and retries live
// there once. This check fails, naming file and line, when code in packages/*/src (envtest
// excepted: it keeps client-node for its few set-up calls), apps/*/src or examples/ builds a
// client of its own: client-node's makeApiClient, its API classes or KubernetesObjectApi or
// Watch as values, the removed RestClient / ApiClientFactory, or another HTTP client (fetch,
// http.request, undici, axios, …). Test files (*.test.ts) may set up with client-node.
// A line that reaches something other than the API server may say so with a comment
// `one-client: not the API server (<why>)` on it or on the line above.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = /\.(?:[cm]?ts|[cm]?js)$/;
const TEST = /\.test\.[cm]?[jt]s$/;
const ALLOW = /one-client: not the API server \(.+\)/;
/** The one client itself. */
const THE_CLIENT = 'packages/runtime/src/client/';

/** Line patterns: what, and why it is refused. */
const LINE_RULES = [
  [
    /\bmakeApiClient\b/,
    "client-node's makeApiClient: use the runtime's Client (manager.client, createClient)",
  ],
  [/\bnew RestClient\b|\bRestClient\(/, "RestClient is gone: use the runtime's Client"],
  [/\bApiClientFactory\b/, "ApiClientFactory is gone: use the runtime's Client"],
  [/(?<![\w.#])fetch\(/, 'fetch: an HTTP client of its own'],
  [
    /\b(?:https?|http2)\.(?:request|get|connect)\(/,
    'node:http(s) requests: an HTTP client of its own',
  ],
  [/from ['"](?:undici|axios|got|node-fetch|superagent|ky)['"]/, 'an HTTP client library'],
];

/** Names that, imported from client-node as values, make requests of their own. */
const CLIENT_NODE_VALUE =
  /^(?:\w+Api|KubernetesObjectApi|Watch|ListWatch|makeInformer|Metrics|Exec|Attach|Log|PortForward|Cp|Health)$/;

function* files(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (SOURCE.test(name) && !TEST.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

function roots() {
  const list = [];
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      if (group === 'packages' && name === 'envtest') continue;
      list.push(join(root, group, name, 'src'));
    }
  }
  list.push(join(root, 'examples'));
  return list;
}

const isComment = (line) => /^\s*(?:\/\/|\/?\*)/.test(line);

/** The offences of one file: [line number, message]. */
export function offences(path, text) {
  const rel = relative(root, path).split('\\').join('/');
  const lines = text.split('\n');
  const found = [];
  const allowed = (i) => ALLOW.test(lines[i] ?? '') || ALLOW.test(lines[i - 1] ?? '');
  if (!rel.startsWith(THE_CLIENT)) {
    lines.forEach((line, i) => {
      if (isComment(line) || allowed(i)) return;
      for (const [pattern, why] of LINE_RULES) if (pattern.test(line)) found.push([i + 1, why]);
    });
  }
  const imports = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]@kubernetes\/client-node['"]/g;
  for (const match of text.matchAll(imports)) {
    if (match[1]) continue; // import type { … }
    let offset = match.index + match[0].indexOf('{') + 1;
    for (const part of match[2].split(',')) {
      const name = part.trim().replace(/\s+as\s+\w+$/, '');
      if (!name.startsWith('type ') && CLIENT_NODE_VALUE.test(name)) {
        const line = text.slice(0, offset + part.indexOf(name)).split('\n').length;
        if (!allowed(line - 1))
          found.push([line, `client-node's ${name} as a value: use the runtime's Client`]);
      }
      offset += part.length + 1;
    }
  }
  return found.sort((a, b) => a[0] - b[0]).map(([line, why]) => `${rel}:${line}: ${why}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = [];
  for (const dir of roots())
    for (const path of files(dir)) report.push(...offences(path, readFileSync(path, 'utf8')));
  if (report.length > 0) {
    console.error(`✘ one client: ${report.length} request path(s) around the runtime's Client\n`);
    for (const line of report) console.error(line);
    process.exit(1);
  }
  console.log("✔ one client: every request goes through the runtime's Client");
}
