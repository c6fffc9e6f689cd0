import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const CHECK = fileURLToPath(new URL('./one-client.mjs', import.meta.url));
const trees = [];

afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** Lays out a small repository from `files` (path -> lines) and runs the check on it. */
function runOn(files) {
  const root = mkdtempSync(join(tmpdir(), 'one-client-'));
  trees.push(root);
  for (const group of ['packages', 'apps', 'examples', 'tests']) mkdirSync(join(root, group));
  for (const [path, lines] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), `${lines.join('\n')}\n`);
  }
  const out = spawnSync(process.execPath, [CHECK, root], { encoding: 'utf8' });
  return { status: out.status, output: `${out.stdout}${out.stderr}` };
}

const SRC = 'packages/widget/src/widget.ts';

/** Each form of a request path around the one client: the file, and the line it is on. */
const CASES = [
  {
    form: "a named request from 'node:https', then called",
    files: {
      [SRC]: [
        "import { request } from 'node:https';",
        '',
        "export const send = () => request('https://10.0.0.1:6443/api');",
      ],
    },
    at: `${SRC}:3`,
  },
  {
    form: "a renamed get from 'node:http', then called",
    files: { [SRC]: ["import { get as g } from 'node:http';", "g('http://apiserver/api');"] },
    at: `${SRC}:2`,
  },
  {
    form: "connect from 'http2', then called",
    files: { [SRC]: ["import { connect } from 'http2';", "const session = connect('https://x');"] },
    at: `${SRC}:2`,
  },
  {
    form: "a namespace import of 'node:https', then .request",
    files: { [SRC]: ["import * as web from 'node:https';", 'web.request(url, () => {});'] },
    at: `${SRC}:2`,
  },
  {
    form: 'a namespace import of client-node, then new k8s.CoreV1Api',
    files: {
      [SRC]: [
        "import * as k8s from '@kubernetes/client-node';",
        'const kc = new k8s.KubeConfig();',
        'const core = new k8s.CoreV1Api(kc as never);',
      ],
    },
    at: `${SRC}:3`,
  },
  {
    form: 'a namespace import of client-node, then new k8s.Watch',
    files: {
      [SRC]: ["import * as k8s from '@kubernetes/client-node';", '', 'new k8s.Watch(kc);'],
    },
    at: `${SRC}:3`,
  },
  {
    form: 'a namespace import of client-node, then k8s.KubernetesObjectApi',
    files: {
      [SRC]: ["import * as k8s from '@kubernetes/client-node';", 'k8s.KubernetesObjectApi.x(kc);'],
    },
    at: `${SRC}:2`,
  },
  {
    form: 'globalThis.fetch',
    files: {
      [SRC]: ['export async function ping() {', "  await globalThis.fetch('/healthz');", '}'],
    },
    at: `${SRC}:2`,
  },
  {
    form: 'globalThis.fetch taken as a value',
    files: { [SRC]: ['const send = globalThis.fetch;'] },
    at: `${SRC}:1`,
  },
  {
    form: 'tls.connect toward the API server',
    files: { [SRC]: ["import tls from 'node:tls';", 'tls.connect({ host, port: 6443 });'] },
    at: `${SRC}:2`,
  },
  {
    form: "net.connect from a namespace import of 'net'",
    files: { [SRC]: ["import * as sockets from 'net';", '', 'sockets.connect(6443);'] },
    at: `${SRC}:3`,
  },
  {
    form: "a named connect from 'node:net', then called",
    files: { [SRC]: ["import { connect as dial } from 'node:net';", 'dial(6443, host);'] },
    at: `${SRC}:2`,
  },
  {
    form: "await import('@kubernetes/client-node'), then an API class",
    files: {
      [SRC]: [
        'export async function core(kc: unknown) {',
        "  const k8s = await import('@kubernetes/client-node');",
        '  return new k8s.CoreV1Api(kc as never);',
        '}',
      ],
    },
    at: `${SRC}:3`,
  },
  {
    form: "an API class destructured from await import('@kubernetes/client-node')",
    files: {
      [SRC]: ["const { CoreV1Api, KubeConfig } = await import('@kubernetes/client-node');"],
    },
    at: `${SRC}:1`,
  },
  {
    form: "import('undici')",
    files: { [SRC]: ['export const load = () => import("undici");'] },
    at: `${SRC}:1`,
  },
  {
    form: "(await import('node:https')).request",
    files: { [SRC]: ["const send = (await import('node:https')).request;"] },
    at: `${SRC}:1`,
  },
  {
    form: 'makeApiClient in an app',
    files: { 'apps/tool/src/main.ts': ['const api = kc.makeApiClient(CoreV1Api);'] },
    at: 'apps/tool/src/main.ts:1',
  },
  {
    form: 'makeApiClient in an integration test',
    files: {
      'packages/widget/src/widget.int.test.ts': [
        "import { CoreV1Api } from '@kubernetes/client-node';",
        "it('works', () => {",
        '  const core = kubeConfig.makeApiClient(CoreV1Api);',
        '});',
      ],
    },
    at: 'packages/widget/src/widget.int.test.ts:3',
  },
  {
    form: 'a client-node API class in an integration test under tests/',
    files: {
      'tests/suite/src/flow.int.test.ts': [
        "import * as k8s from '@kubernetes/client-node';",
        'const core = new k8s.CoreV1Api(config);',
      ],
    },
    at: 'tests/suite/src/flow.int.test.ts:2',
  },
];

describe('check:one-client', () => {
  for (const { form, files, at } of CASES) {
    it(`fails on ${form}, naming file and line`, () => {
      const { status, output } = runOn(files);
      expect(status).toBe(1);
      expect(output).toContain(`${at}: `);
    });
  }

  it('passes a tree that goes through the one client, with what is allowed', () => {
    const { status, output } = runOn({
      [SRC]: [
        "import type { CoreV1Api } from '@kubernetes/client-node';",
        "import { KubeConfig, type V1Pod } from '@kubernetes/client-node';",
        "import { createClient } from '@ctrlkit/client';",
        "import { isIP } from 'node:net';",
        "import { createServer } from 'node:https';",
        '// makeApiClient is not used here; globalThis.fetch neither',
        'const client = createClient(new KubeConfig());',
        'await informer.fetch(key);',
        'const request = build(); request.send();',
        '// one-client: not the API server (the provider endpoint)',
        "await fetch('https://provider.example/vms');",
      ],
      'packages/widget/src/widget.test.ts': ['const api = kc.makeApiClient(CoreV1Api);'],
      'packages/widget/src/metrics.int.test.ts': [
        "import { createClient } from '@ctrlkit/client';",
        "const body = await (await fetch('http://127.0.0.1:8080/metrics')).text();",
      ],
      'packages/envtest/src/namespace.ts': ['const api = kubeConfig.makeApiClient(CoreV1Api);'],
      'packages/client/src/transport.ts': [
        "import { request } from 'node:https';",
        'request(url);',
      ],
      'tests/suite/src/harness.ts': ['const api = kc.makeApiClient(CoreV1Api);'],
    });
    expect(output).toContain('✔ one client');
    expect(status).toBe(0);
  });

  it("exempts the client package only: the runtime's old client folder is checked like any code", () => {
    const { status, output } = runOn({
      'packages/runtime/src/client/transport.ts': [
        "import { request } from 'node:https';",
        'request(url);',
      ],
    });
    expect(status).toBe(1);
    expect(output).toContain('packages/runtime/src/client/transport.ts:2: ');
  });
});
