// The virtual kubelet as DRA's node side, on the real apiserver (the run's control plane, no
// scheduler: the test writes each claim's allocation and reservation as kube-scheduler would).
// The DRA drivers are simulated in this process by `simulatedGpuDriver`, served over gRPC by
// @ctrlkit/dra-kubeletplugin's startPlugin and registered through the virtual kubelet's
// --plugins-registry-dir; the built binary runs as deploy/'s ServiceAccount with the process
// provider, so the env a container gets from its CDI devices is what its process writes.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import {
  type DRAPlugin,
  type Helper,
  type PrepareResult,
  removeSpec,
  startPlugin,
  transientSpecName,
  writeSpec,
} from '@ctrlkit/dra-kubeletplugin';
import { createTestNamespace, freePort } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient, type Wire } from '@ctrlkit/runtime/client';
import type { CoreV1Event, ResourceV1ResourceClaim, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';

const NODE = `vk-dra-${Math.random().toString(36).slice(2, 7)}`;
const GPU = 'gpu.example.com';
const LATE = 'late.example.com';
const CLAIMS = 'resource.k8s.io/v1/resourceclaims';
const WAIT = { timeoutMs: 30_000, intervalMs: 100 };
const kubeConfig = testKubeConfig();
const client = createClient(kubeConfig);

let dir: string;
let namespace: string;
let vk: AppProcess;
const helpers: Helper[] = [];
/** Per driver: the claim UIDs of each prepare and unprepare call, in order. */
const calls = new Map<string, { prepare: string[]; unprepare: string[] }>();

/**
 * A simulated DRA driver (the kubelet plugin of a driver we do not run here): one CDI spec
 * per claim with `GPU_DEVICE_<n>` per device; a claim named `bad-*` fails to prepare.
 */
function simulatedGpuDriver(driver: string): DRAPlugin {
  const vendor = `k8s.${driver}`;
  const seen = { prepare: [] as string[], unprepare: [] as string[] };
  calls.set(driver, seen);
  return {
    async prepareResourceClaims(claims) {
      const results = new Map<string, PrepareResult>();
      for (const claim of claims) {
        const uid = claim.metadata?.uid ?? '';
        seen.prepare.push(uid);
        if (claim.metadata?.name?.startsWith('bad-')) {
          results.set(uid, {
            error: new Error('simulated: GpuConfig sharing strategy "Bogus" is invalid'),
          });
          continue;
        }
        const mine = (claim.status?.allocation?.devices?.results ?? []).filter(
          (r) => r.driver === driver,
        );
        const devices = mine.map((r, i) => ({
          name: `${uid}-${r.device}`,
          containerEdits: { env: [`GPU_DEVICE_${i}=${r.device}`] },
        }));
        await writeSpec(
          join(dir, 'cdi'),
          { kind: `${vendor}/gpu`, devices, containerEdits: { env: [`DRIVER=${driver}`] } },
          transientSpecName(vendor, 'gpu', uid),
        );
        results.set(uid, {
          devices: mine.map((r) => ({
            requests: [r.request],
            poolName: r.pool,
            deviceName: r.device,
            cdiDeviceIds: [`${vendor}/gpu=${uid}-${r.device}`],
          })),
        });
      }
      return results;
    },
    async unprepareResourceClaims(refs) {
      for (const ref of refs) {
        seen.unprepare.push(ref.uid);
        await removeSpec(join(dir, 'cdi'), transientSpecName(vendor, 'gpu', ref.uid));
      }
      return new Map(refs.map((ref) => [ref.uid, null]));
    },
    handleError() {},
  };
}

async function startDriver(driver: string): Promise<Helper> {
  const data = join(dir, 'plugins', driver);
  await mkdir(data, { recursive: true });
  const helper = await startPlugin(
    {
      driverName: driver,
      client: kubeConfig,
      registrarDirectoryPath: join(dir, 'plugins_registry'),
      pluginDataDirectoryPath: data,
    },
    simulatedGpuDriver(driver),
  );
  helpers.push(helper);
  return helper;
}

async function startVirtualKubelet(): Promise<AppProcess> {
  return startApp(appPackage('@ctrlkit/virtual-kubelet', import.meta.url), {
    args: [
      `--nodename=${NODE}`,
      '--provider=process',
      `--plugins-registry-dir=${join(dir, 'plugins_registry')}`,
      `--cdi-spec-dirs=${join(dir, 'static-cdi')},${join(dir, 'cdi')}`,
      `--listen-port=${await freePort()}`,
      '--metrics-addr=0',
      '--healthz-addr=0',
    ],
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vk-dra-'));
  await mkdir(join(dir, 'out'));
  await mkdir(join(dir, 'plugins_registry'));
  namespace = await createTestNamespace(kubeConfig, 'vk-dra-');
  await startDriver(GPU);
  vk = await startVirtualKubelet();
});

afterAll(async () => {
  try {
    expect(await vk?.stop()).toBe(0);
  } finally {
    for (const helper of helpers) await helper.stop();
    client.close();
    await rm(dir, { recursive: true, force: true });
  }
});

type Claim = Wire<ResourceV1ResourceClaim>;

async function createClaim(name: string): Promise<Claim> {
  return client.create<ResourceV1ResourceClaim>(CLAIMS, {
    metadata: { name, namespace },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: GPU } }] } },
  });
}

/** Writes the allocation (one device of `driver`) and reserves the claim for `pods`, as kube-scheduler would. */
async function allocate(name: string, driver: string, device: string, pods: Wire<V1Pod>[]) {
  const claim = await client.get<Claim>(CLAIMS, name, { namespace });
  return client.replace<Claim>(
    CLAIMS,
    {
      ...claim,
      status: {
        allocation: {
          devices: { results: [{ request: 'gpu', driver, pool: NODE, device }] },
        },
        reservedFor: pods.map((p) => ({
          resource: 'pods',
          name: p.metadata?.name ?? '',
          uid: p.metadata?.uid ?? '',
        })),
      },
    },
    { subresource: 'status' },
  );
}

/** A pod on the virtual node using `claims`; its process writes its GPU env to out/<name> and sleeps (or exits with `exit`). */
async function createPod(name: string, claims: string[], exit = false): Promise<Wire<V1Pod>> {
  const out = join(dir, 'out', name);
  const script = `env | grep -E '^(GPU_DEVICE|DRIVER)' | sort > ${out}.tmp; mv ${out}.tmp ${out}; ${exit ? 'sleep 1' : 'exec sleep 600'}`;
  return client.create<V1Pod>('pods', {
    metadata: { name, namespace },
    spec: {
      nodeName: NODE,
      restartPolicy: exit ? 'Never' : 'Always',
      terminationGracePeriodSeconds: 1,
      resourceClaims: claims.map((c, i) => ({ name: `c${i}`, resourceClaimName: c })),
      containers: [
        {
          name: 'main',
          image: 'busybox',
          command: ['/bin/sh', '-c', script],
          resources: { claims: claims.map((_, i) => ({ name: `c${i}` })) },
        },
      ],
    },
  });
}

const phase = async (name: string) =>
  (await client.get<V1Pod>('pods', name, { namespace })).status?.phase;
const output = (name: string) =>
  waitFor(`${name}'s process output`, () => readFile(join(dir, 'out', name), 'utf8'), WAIT);
const specFile = (claim: Claim) =>
  join(dir, 'cdi', `${transientSpecName(`k8s.${GPU}`, 'gpu', claim.metadata?.uid ?? '')}.json`);

async function deletePod(name: string): Promise<void> {
  await client.delete('pods', name, { namespace });
  await waitFor(
    `${name} gone`,
    async () => {
      try {
        await client.get('pods', name, { namespace });
        return false;
      } catch {
        return true;
      }
    },
    WAIT,
  );
}

async function events(name: string, reason: string): Promise<string[]> {
  const list = await client.list<CoreV1Event>('events', {
    namespace,
    fieldSelector: `involvedObject.name=${name},reason=${reason}`,
  });
  return list.items.map((e) => e.message ?? '');
}

it('an allocated claim reserved for the pod is prepared over gRPC, the process sees its CDI env; the pod deleted, the claim is unprepared and its spec removed', async () => {
  await createClaim('one');
  const pod = await createPod('one', ['one']);
  const claim = await allocate('one', GPU, 'gpu-0', [pod]);
  expect(await output('one')).toBe('DRIVER=gpu.example.com\nGPU_DEVICE_0=gpu-0\n');
  await waitFor('one Running', async () => (await phase('one')) === 'Running', WAIT);
  expect(calls.get(GPU)?.prepare).toContain(claim.metadata?.uid);
  expect(existsSync(specFile(claim))).toBe(true);

  await deletePod('one');
  await waitFor('the claim unprepared', () => !existsSync(specFile(claim)), WAIT);
  expect(calls.get(GPU)?.unprepare.filter((u) => u === claim.metadata?.uid)).toHaveLength(1);
});

it('a claim shared by two pods is prepared once and unprepared only after the second pod ends', async () => {
  await createClaim('shared');
  const a = await createPod('shared-a', ['shared']);
  const b = await createPod('shared-b', ['shared'], true);
  const claim = await allocate('shared', GPU, 'gpu-1', [a, b]);
  const uid = claim.metadata?.uid ?? '';
  expect(await output('shared-a')).toContain('GPU_DEVICE_0=gpu-1');
  expect(await output('shared-b')).toContain('GPU_DEVICE_0=gpu-1');
  expect(calls.get(GPU)?.prepare.filter((u) => u === uid)).toHaveLength(1);

  await deletePod('shared-a');
  // b still runs: nothing is unprepared until it has Succeeded.
  expect(await phase('shared-b')).toBe('Running');
  expect(calls.get(GPU)?.unprepare).not.toContain(uid);
  await waitFor('b Succeeded', async () => (await phase('shared-b')) === 'Succeeded', WAIT);
  await waitFor('the claim unprepared', () => !existsSync(specFile(claim)), WAIT);
  expect(calls.get(GPU)?.unprepare.filter((u) => u === uid)).toHaveLength(1);
  await deletePod('shared-b');
});

it('a prepare error keeps the pod Pending with a FailedPrepareDynamicResources event naming the claim and the error', async () => {
  await createClaim('bad-config');
  const pod = await createPod('bad', ['bad-config']);
  await allocate('bad-config', GPU, 'gpu-2', [pod]);
  const messages = await waitFor(
    'the prepare error as an event',
    () => events('bad', 'FailedPrepareDynamicResources'),
    { ...WAIT, until: (m) => m.some((x) => x.includes('GpuConfig')) },
  );
  expect(messages.find((m) => m.includes('GpuConfig'))).toMatch(
    new RegExp(`claim ${namespace}/bad-config: driver ${GPU}: .*Bogus`),
  );
  expect(await phase('bad')).toBe('Pending');
  await deletePod('bad');
});

it('a claim not allocated, then a driver not registered, keep the pod Pending with the reason; it runs once the driver registers', async () => {
  await createClaim('late');
  const pod = await createPod('late', ['late']);
  await waitFor('not allocated', () => events('late', 'FailedPrepareDynamicResources'), {
    ...WAIT,
    until: (m) => m.some((x) => x.includes(`claim ${namespace}/late: not allocated yet`)),
  });
  await allocate('late', LATE, 'gpu-0', [pod]);
  await waitFor('not registered', () => events('late', 'FailedPrepareDynamicResources'), {
    ...WAIT,
    until: (m) => m.some((x) => x.includes(`driver ${LATE} is not registered`)),
  });
  expect(await phase('late')).toBe('Pending');

  await startDriver(LATE);
  expect(await output('late')).toBe('DRIVER=late.example.com\nGPU_DEVICE_0=gpu-0\n');
  await deletePod('late');
});

it('two claims in one pod: both prepared, the container gets the devices of both', async () => {
  await createClaim('two-a');
  await createClaim('two-b');
  const pod = await createPod('two', ['two-a', 'two-b']);
  await allocate('two-a', GPU, 'gpu-3', [pod]);
  await allocate('two-b', GPU, 'gpu-4', [pod]);
  // One spec per claim, each setting GPU_DEVICE_0: the later device's wins, as CDI applies them in order.
  expect(await output('two')).toMatch(/^DRIVER=gpu.example.com\nGPU_DEVICE_0=gpu-[34]\n$/);
  const a = await client.get<Claim>(CLAIMS, 'two-a', { namespace });
  const b = await client.get<Claim>(CLAIMS, 'two-b', { namespace });
  expect(existsSync(specFile(a)) && existsSync(specFile(b))).toBe(true);
  await deletePod('two');
  await waitFor(
    'both unprepared',
    () => !existsSync(specFile(a)) && !existsSync(specFile(b)),
    WAIT,
  );
});

it('the plugin restarted between prepare and unprepare, and the virtual kubelet restarted: the claim is unprepared once, nothing leaks', async () => {
  await createClaim('restart');
  const pod = await createPod('restart', ['restart']);
  const claim = await allocate('restart', GPU, 'gpu-5', [pod]);
  const uid = claim.metadata?.uid ?? '';
  await output('restart');
  // Another pod ends while the virtual kubelet is down (its status written here, as if it had
  // been reported): after the restart its claim is found from the pods and unprepared.
  await createClaim('ended');
  const ended = await createPod('ended', ['ended']);
  const endedClaim = await allocate('ended', GPU, 'gpu-6', [ended]);
  await output('ended');

  // The plugin restarts: its socket goes and comes back; the virtual kubelet registers it again.
  await helpers.shift()?.stop();
  await startDriver(GPU);
  // The virtual kubelet restarts: the pod runs again (the process provider starts it afresh).
  expect(await vk.stop()).toBe(0);
  const endedNow = await client.get<V1Pod>('pods', 'ended', { namespace });
  await client.replace<Wire<V1Pod>>(
    'pods',
    { ...endedNow, status: { ...endedNow.status, phase: 'Succeeded' } },
    { subresource: 'status' },
  );
  await rm(join(dir, 'out', 'restart'));
  vk = await startVirtualKubelet();
  expect(await output('restart')).toContain('GPU_DEVICE_0=gpu-5');
  await waitFor("the ended pod's claim unprepared", () => !existsSync(specFile(endedClaim)), WAIT);
  expect(calls.get(GPU)?.prepare).not.toContain(endedClaim.metadata?.uid);

  await deletePod('restart');
  await waitFor('the claim unprepared', () => !existsSync(specFile(claim)), WAIT);
  expect(calls.get(GPU)?.unprepare.filter((u) => u === uid)).toHaveLength(1);
});
