#!/usr/bin/env node
// pnpm check:one-client
//
// Every request to the API server goes through the one client, @ctrlkit/client (manager.client,
// or createClient(kubeConfig)): rate limit, metrics, User-Agent, keep-alive and retries live
// there once. This check fails, naming file and line, when code in packages/*/src (envtest
// excepted: it keeps client-node for its few set-up calls), apps/*/src or examples/ builds a
// client of its own (the rules are in one-client-rules.mjs): client-node's makeApiClient, its
// API classes or KubernetesObjectApi or Watch as values (named, namespace or dynamic
// imports), the removed RestClient / ApiClientFactory, another HTTP client (fetch,
// globalThis.fetch, node:http(s)/http2 request/get/connect however imported, undici, axios,
// …) or a socket of its own (tls/net connect). Integration tests (*.int.test.ts, there and
// under tests/) must reach the API server through the one client or envtest's helpers, never
// client-node's API clients; other test files (*.test.ts) may set up with client-node.
// A line that reaches something other than the API server may say so with a comment
// `one-client: not the API server (<why>)` on it or on the line above.
//
// Usage: one-client.mjs [repository root]   (default: this repository)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { offences } from './one-client-rules.mjs';

const SOURCE = /\.(?:[cm]?ts|[cm]?js)$/;
const TEST = /\.test\.[cm]?[jt]s$/;
const INTEGRATION = /\.int\.test\.[cm]?[jt]s$/;
/** The one client itself. */
const THE_CLIENT = 'packages/client/src/';

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
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

const list = (dir) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** The folders searched: packages/*\/src (but envtest), apps/*\/src, examples/, tests/*\/src. */
function roots(root) {
  const found = [];
  for (const group of ['packages', 'apps', 'tests']) {
    for (const name of list(join(root, group))) {
      if (group === 'packages' && name === 'envtest') continue;
      found.push({ dir: join(root, group, name, 'src'), testsOnly: group === 'tests' });
    }
  }
  found.push({ dir: join(root, 'examples'), testsOnly: false });
  return found;
}

/**
 * Every offence under `root`, as `file:line: why`: shipped and example code against every
 * rule, integration tests against the client-node rules; other tests are not read.
 * @param {string} root the repository root
 * @returns {string[]}
 */
export function check(root) {
  const report = [];
  for (const { dir, testsOnly } of roots(root)) {
    for (const path of files(dir)) {
      const rel = relative(root, path).split('\\').join('/');
      const integration = INTEGRATION.test(rel);
      if (!integration && (testsOnly || TEST.test(rel))) continue;
      const theClient = rel.startsWith(THE_CLIENT);
      report.push(...offences(rel, readFileSync(path, 'utf8'), { integration, theClient }));
    }
  }
  return report;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? fileURLToPath(new URL('../..', import.meta.url)));
  const report = check(root);
  if (report.length > 0) {
    console.error(
      `✘ one client: ${report.length} request path(s) around the one client (@ctrlkit/client)\n`,
    );
    for (const line of report) console.error(line);
    process.exit(1);
  }
  console.log('✔ one client: every request goes through the one client (@ctrlkit/client)');
}
