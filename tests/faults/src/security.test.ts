// Security, each app as its deploy/ ServiceAccount on a control plane of the file's own:
// TLS verification is on by default (a kubeconfig CA that did not sign the apiserver's
// certificate, or none, fails with an error naming the server) and
// --insecure-skip-tls-verify works with a warning; no Secret value and no token appears in
// any log line at the most verbose level; a ServiceAccount without a permission the app needs
// gets an error-level line naming it, repeated with backoff, not silence.

import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AppPackage,
  type AppProcess,
  appPackage,
  type Permission,
  startApp,
} from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import {
  type ControlPlane,
  createCertificate,
  createTestNamespace,
  installCRDs,
} from '@ctrlkit/envtest';
import { API_VERSION, forkliftCrds, GROUP, PLURALS, VERSION } from '@ctrlkit/plan-migration';
import { type Client, createClient } from '@ctrlkit/runtime/client';
import type { V1Node, V1Pod, V1ResourceSlice } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterOf, startFaultPlane } from './harness.js';

let plane: ControlPlane;
let client: Client;
let server: string;
/** A CA that did not sign the apiserver's certificate. */
let otherCaPem: string;
/** Where the migration controller's objects go. */
let mcNamespace: string;
let nextPort = 10_350;

/** One app under test: how to start it, the work that shows it talks to the apiserver, the permission it cannot do without. */
interface AppCase {
  readonly name: string;
  readonly app: AppPackage;
  /** Flags besides `--kubeconfig` and `--log-level` (a unique node name per start). */
  args(): string[];
  /** It streams its informer's initial state (Go v0.35's WatchList): a refused stream falls back to a LIST. */
  readonly streams?: true;
  /** Resolves once the app did real work on the cluster. */
  working(args: string[]): Promise<void>;
  /**
   * A permission of its deploy/ RBAC it needs to start: `list` on its main resource, or
   * `watch` where it streams its informer's initial state (the DRA driver, as Go's v0.35).
   */
  readonly needs: Permission;
}

const suffix = () => Math.random().toString(36).slice(2, 7);
const flagValue = (args: string[], flag: string) =>
  args.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1) ?? '';

const APPS: AppCase[] = [
  {
    name: 'virtual-kubelet',
    app: appPackage('@ctrlkit/virtual-kubelet', import.meta.url),
    args: () => [
      `--nodename=sec-vk-${suffix()}`,
      '--metrics-addr=0',
      '--healthz-addr=0',
      '--internal-ip=10.9.8.7',
      `--listen-port=${nextPort++}`,
    ],
    async working(args) {
      const name = flagValue(args, '--nodename');
      await waitFor(`node ${name} Ready`, async () => {
        const node = await client.get<V1Node>('nodes', name).catch(() => undefined);
        return node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
      });
    },
    needs: { apiGroup: '', resource: 'pods', verb: 'list' },
  },
  {
    name: 'dra-example-driver',
    app: appPackage('@ctrlkit/dra-example-driver', import.meta.url),
    args: () => [
      `--node-name=sec-dra-${suffix()}`,
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
    ],
    async working(args) {
      const nodeName = flagValue(args, '--node-name');
      await client
        .create('nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName } })
        .catch(() => undefined);
      await waitFor(`the slices of ${nodeName}`, async () => {
        const slices = await client.list<V1ResourceSlice>('resource.k8s.io/v1/resourceslices', {
          fieldSelector: `spec.nodeName=${nodeName}`,
        });
        return slices.items.length > 0;
      });
    },
    // A streaming list needs only `watch`; without it the stream is refused and the
    // fallback LIST syncs, but every WATCH after it is refused (as Go's driver).
    needs: { apiGroup: 'resource.k8s.io', resource: 'resourceslices', verb: 'watch' },
    streams: true,
  },
  {
    name: 'migration-controller',
    app: appPackage('@ctrlkit/migration-controller', import.meta.url),
    args: () => ['--metrics-addr=0', '--healthz-addr=0', '--destination=configmap'],
    async working() {
      const name = `host-${suffix()}`;
      await createCustom('Provider', name, { type: 'openshift' });
      await waitFor(`Provider ${name} Ready`, async () => {
        const p = (await readCustom('Provider', name)) as { status?: { phase?: string } };
        return p.status?.phase === 'Ready';
      });
    },
    needs: { apiGroup: GROUP, resource: PLURALS.Provider, verb: 'list' },
  },
];

function createCustom(kind: keyof typeof PLURALS, name: string, spec: object) {
  return client.create(
    `${GROUP}/${VERSION}/${PLURALS[kind]}`,
    { apiVersion: API_VERSION, kind, metadata: { name }, spec },
    { namespace: mcNamespace },
  );
}

function readCustom(kind: keyof typeof PLURALS, name: string) {
  return client.get(`${GROUP}/${VERSION}/${PLURALS[kind]}`, name, { namespace: mcNamespace });
}

beforeAll(async () => {
  plane = await startFaultPlane();
  client = createClient(plane.kubeConfig);
  server = plane.kubeConfig.getCurrentCluster()?.server ?? '';
  otherCaPem = (await createCertificate({ commonName: 'not the apiserver CA', usage: 'ca' }))
    .certPem;
  await installCRDs(plane.kubeConfig, [...forkliftCrds]);
  mcNamespace = await createTestNamespace(plane.kubeConfig, 'sec-mc-');
}, 120_000);
afterAll(async () => {
  client?.close();
  await plane?.stop();
});

/** A pino line's level (50 error, 40 warn), and its text with JSON's escaped quotes undone. */
function parsed(line: string): { level: number; text: string } {
  try {
    return {
      level: (JSON.parse(line) as { level?: number }).level ?? 0,
      text: line.replaceAll('\\"', '"'),
    };
  } catch {
    return { level: 0, text: line };
  }
}

/** The app's lines of at least `level` whose text contains `needle`. */
function linesWith(app: AppProcess, level: number, needle: string): string[] {
  return app.logs
    .map(parsed)
    .filter((l) => l.level >= level && l.text.includes(needle))
    .map((l) => l.text);
}

async function waitForLines(app: AppProcess, level: number, needle: string, count = 1) {
  return waitFor(`a log line with ${needle}`, async () => linesWith(app, level, needle), {
    until: (lines) => lines.length >= count,
    timeoutMs: 30_000,
  });
}

const ERROR = 50;
const WARN = 40;

describe.each(APPS)('$name', (spec) => {
  it('verifies TLS by default: a CA that did not sign the apiserver, or none, fails naming the server', async () => {
    for (const certificateAuthority of [otherCaPem, null]) {
      const app = await startApp(spec.app, {
        cluster: clusterOf(plane),
        certificateAuthority,
        args: [...spec.args(), '--log-level=debug'],
      });
      try {
        const [line] = await waitForLines(
          app,
          ERROR,
          `TLS: the certificate of ${server} is not trusted`,
        );
        expect(line).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
        expect(linesWith(app, WARN, 'TLS verification is off')).toEqual([]);
      } finally {
        await app.stop();
      }
    }
  });

  it('works with --insecure-skip-tls-verify over that CA, and warns about it', async () => {
    const args = spec.args();
    const app = await startApp(spec.app, {
      cluster: clusterOf(plane),
      certificateAuthority: otherCaPem,
      args: [...args, '--insecure-skip-tls-verify', '--log-level=debug'],
    });
    try {
      await spec.working(args);
      const warnings = linesWith(app, WARN, 'TLS verification is off');
      expect(warnings).toHaveLength(1);
      expect(parsed(warnings[0] ?? '').level).toBe(WARN);
      expect(warnings[0]).toContain(`the certificate of ${server} is not checked`);
      expect(warnings[0]).toContain('"source":"--insecure-skip-tls-verify"');
      expect(linesWith(app, ERROR, 'TLS')).toEqual([]);
    } finally {
      expect(await app.stop()).toBe(0);
    }
  });

  it(`without ${spec.needs.verb} on ${spec.needs.resource}: an error naming the permission, repeated with backoff`, async () => {
    const { verb, resource, apiGroup } = spec.needs;
    const app = await startApp(spec.app, {
      cluster: clusterOf(plane),
      withoutPermission: spec.needs,
      args: [...spec.args(), '--log-level=debug'],
    });
    const needle = `cannot ${verb} resource "${resource}" in API group "${apiGroup}"`;
    let stopped: unknown;
    try {
      const [first] = await waitForLines(app, ERROR, needle);
      expect(first).toContain(`User "${app.rbac.username}"`);
      expect(first).toMatch(/at the cluster scope|in the namespace/);
      // Retried with client-go's backoff (0.8 s, 1.6 s, 3.2 s, …), not in a hot loop, and
      // every retry says why at error level.
      const before = linesWith(app, ERROR, needle).length;
      await sleep(6_000);
      const during = linesWith(app, ERROR, needle).length - before;
      expect(during).toBeGreaterThanOrEqual(1);
      expect(during).toBeLessThanOrEqual(12);
      // As client-go: the refused stream came first, and it fell back to a LIST.
      if (spec.streams) expect(linesWith(app, 0, 'listing instead this time')).not.toEqual([]);
    } finally {
      stopped = await app.stop().catch((error: unknown) => error);
    }
    // The audit log agrees: the apiserver refused exactly that.
    expect(String(stopped)).toMatch(/refused \d+ request/);
    expect(String(stopped)).toContain(resource);
  });
});

describe('dra-example-driver without list on resourceslices', () => {
  it('publishes with no error and no refused request: it streams its initial state, which needs only watch, as Go v0.35', async () => {
    const spec = APPS.find((a) => a.name === 'dra-example-driver') as AppCase;
    const args = spec.args();
    const app = await startApp(spec.app, {
      cluster: clusterOf(plane),
      withoutPermission: { apiGroup: 'resource.k8s.io', resource: 'resourceslices', verb: 'list' },
      args: [...args, '--log-level=debug'],
    });
    let stopped: unknown;
    try {
      await spec.working(args);
      expect(linesWith(app, WARN, 'resourceslices')).toEqual([]);
      expect(linesWith(app, 0, 'listing instead')).toEqual([]);
    } finally {
      stopped = await app.stop().catch((error: unknown) => error);
    }
    // stop() throws on any request the apiserver refused (the audit log): there was none.
    expect(stopped).toBe(0);
  });
});

describe('no Secret value in any log line', () => {
  it('at the most verbose level, with planted Secrets the apps read, and their tokens', async () => {
    const planted = {
      vk: `vk-planted-${suffix()}-value`,
      vkFile: `vk-planted-file-${suffix()}`,
      mcUser: `mc-planted-user-${suffix()}`,
      mcPassword: `mc-planted-password-${suffix()}`,
    };
    const apps: AppProcess[] = [];
    try {
      // The virtual kubelet resolves a pod's env and volumes from Secrets it lists.
      const vkArgs = APPS[0]?.args() ?? [];
      const nodeName = flagValue(vkArgs, '--nodename');
      const vkNamespace = await createTestNamespace(plane.kubeConfig, 'sec-vk-');
      await client.create(
        'secrets',
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'creds' },
          stringData: { password: planted.vk, 'file.txt': planted.vkFile },
        },
        { namespace: vkNamespace },
      );
      const vk = await startApp(appPackage('@ctrlkit/virtual-kubelet', import.meta.url), {
        cluster: clusterOf(plane),
        args: [...vkArgs, '--log-level=trace'],
      });
      apps.push(vk);
      await client.create<V1Pod>(
        'pods',
        {
          metadata: { name: 'uses-secret' },
          spec: {
            nodeName,
            containers: [
              {
                name: 'c',
                image: 'i',
                env: [
                  {
                    name: 'PASSWORD',
                    valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } },
                  },
                ],
                envFrom: [{ secretRef: { name: 'creds' } }],
              },
            ],
            volumes: [{ name: 'creds', secret: { secretName: 'creds' } }],
          },
        },
        { namespace: vkNamespace },
      );
      // The DRA driver reads no Secret: its token is what it holds.
      const draArgs = APPS[1]?.args() ?? [];
      const dra = await startApp(appPackage('@ctrlkit/dra-example-driver', import.meta.url), {
        cluster: clusterOf(plane),
        args: [...draArgs, '--log-level=trace'],
      });
      apps.push(dra);
      // The migration controller: a source Provider with a credentials Secret, a plan run.
      await client.create(
        'secrets',
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'src-credentials' },
          stringData: { user: planted.mcUser, password: planted.mcPassword },
        },
        { namespace: mcNamespace },
      );
      const mc = await startApp(appPackage('@ctrlkit/migration-controller', import.meta.url), {
        cluster: clusterOf(plane),
        args: [...(APPS[2]?.args() ?? []), '--log-level=trace'],
      });
      apps.push(mc);
      await runPlan();

      await waitFor('the pod using the Secret Running', async () => {
        const pod = await client.get<V1Pod>('pods', 'uses-secret', { namespace: vkNamespace });
        return pod.status?.phase === 'Running';
      });
      await APPS[1]?.working(draArgs);
    } finally {
      for (const app of apps) expect(await app.stop()).toBe(0);
    }
    const needles = [
      ...Object.values(planted).flatMap((v) => [v, Buffer.from(v).toString('base64')]),
    ];
    const leaks: string[] = [];
    for (const app of apps) {
      expect(app.logs.length).toBeGreaterThan(10); // trace level: plenty of lines
      const own = [app.token, app.token.split('.')[2] ?? app.token];
      for (const line of app.logs) {
        for (const needle of [...needles, ...own]) {
          if (line.includes(needle)) leaks.push(`${app.rbac.username}: ${line}`);
        }
      }
    }
    expect(leaks).toEqual([]);
  }, 180_000);
});

/** A plan of 2 simulated VMs whose source Provider has the credentials Secret, run to Succeeded. */
async function runPlan(): Promise<void> {
  const storageClass = `sc-${mcNamespace}`;
  await client.create('storage.k8s.io/v1/storageclasses', {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: storageClass },
    provisioner: 'example.com/none',
  });
  const target = await createTestNamespace(plane.kubeConfig, 'sec-target-');
  const pair = { source: { name: 'src' }, destination: { name: 'dst' } };
  await createCustom('Provider', 'src', {
    type: 'simulated',
    secret: { name: 'src-credentials', namespace: mcNamespace },
    settings: { vms: '2', diskMiB: '100', copyRateMiBPerSecond: '2000' },
  });
  await createCustom('Provider', 'dst', { type: 'openshift' });
  await createCustom('NetworkMap', 'net', {
    provider: pair,
    map: [{ source: { id: 'net-1' }, destination: { type: 'pod' } }],
  });
  await createCustom('StorageMap', 'sto', {
    provider: pair,
    map: [{ source: { id: 'ds-1' }, destination: { storageClass } }],
  });
  await createCustom('Plan', 'plan', {
    provider: pair,
    targetNamespace: target,
    map: { network: { name: 'net' }, storage: { name: 'sto' } },
    vms: [{ id: 'vm-0' }, { id: 'vm-1' }],
  });
  const condition = async (type: string) => {
    const plan = (await readCustom('Plan', 'plan')) as {
      status?: { conditions?: Array<{ type: string; status: string }> };
    };
    return (plan.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
  };
  await waitFor('the plan Ready', () => condition('Ready'), { timeoutMs: 60_000 });
  await createCustom('Migration', 'run-1', { plan: { name: 'plan' } });
  await waitFor('the plan Succeeded', () => condition('Succeeded'), { timeoutMs: 90_000 });
}
