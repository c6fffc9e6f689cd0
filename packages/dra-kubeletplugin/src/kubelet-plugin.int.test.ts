// The plugin as the kubelet sees it, on the real apiserver: the test writes a claim's
// allocation as the scheduler would, then calls the plugin's sockets with gRPC clients built
// only from the kubelet's .proto files (test/kubelet-client.ts), never through our node side.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient, type Wire } from '@ctrlkit/runtime/client';
import type { ResourceV1ResourceClaim, V1ResourceSlice } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, kubeletClients, type PrepareResponse } from '../test/kubelet-client.js';
import { removeSpec, transientSpecName, writeSpec } from './cdi/spec-files.js';
import type { DRAPlugin, NamespacedObject, PrepareResult, ResourceClaim } from './dra-plugin.js';
import { type Helper, startPlugin } from './helper.js';

const DRIVER = 'gpu.example.com';
const VENDOR = 'k8s.gpu.example.com';
const kubeConfig = testKubeConfig();
const client = createClient(kubeConfig);
const CLAIMS = 'resource.k8s.io/v1/resourceclaims';
const SLICES = 'resource.k8s.io/v1/resourceslices';
type Claim = Wire<ResourceV1ResourceClaim>;
const nodeName = `kp-node-${Math.random().toString(36).slice(2, 7)}`;

let dir: string;
let cdiDir: string;
let namespace: string;
let helper: Helper;
let kubelet: ReturnType<typeof kubeletClients>;
const prepared: ResourceClaim[][] = [];
const unprepared: NamespacedObject[][] = [];
const errors: string[] = [];

/** A driver as the example driver will be: one CDI spec per claim, GPU_DEVICE_<n> per device. */
const plugin: DRAPlugin = {
  async prepareResourceClaims(claims) {
    prepared.push([...claims]);
    const results = new Map<string, PrepareResult>();
    for (const claim of claims) {
      const uid = claim.metadata?.uid ?? '';
      const mine = (claim.status?.allocation?.devices?.results ?? []).filter(
        (r) => r.driver === DRIVER,
      );
      const devices = mine.map((r, i) => ({
        name: `${uid}-${r.device}`,
        containerEdits: { env: [`GPU_DEVICE_${i}=${r.device}`] },
      }));
      await writeSpec(
        cdiDir,
        { kind: `${VENDOR}/gpu`, devices },
        transientSpecName(VENDOR, 'gpu', uid),
      );
      results.set(uid, {
        devices: mine.map((r) => ({
          requests: [r.request],
          poolName: r.pool,
          deviceName: r.device,
          cdiDeviceIds: [`${VENDOR}/gpu=${uid}-${r.device}`],
        })),
      });
    }
    return results;
  },
  async unprepareResourceClaims(refs) {
    unprepared.push([...refs]);
    for (const ref of refs) await removeSpec(cdiDir, transientSpecName(VENDOR, 'gpu', ref.uid));
    return new Map(refs.map((ref) => [ref.uid, null]));
  },
  handleError(error, message) {
    errors.push(`${message}: ${error.message}`);
  },
};

/** Creates a claim for one GPU; with `allocate`, writes its allocation and reservation as the scheduler would. */
async function createClaim(
  name: string,
  allocate: { driver: string; device: string } | undefined,
): Promise<Claim> {
  const claim = await client.create<ResourceV1ResourceClaim>(CLAIMS, {
    metadata: { name, namespace },
    spec: {
      devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] },
    },
  });
  if (!allocate) return claim;
  return client.replace<Claim>(
    CLAIMS,
    {
      ...claim,
      status: {
        allocation: {
          devices: {
            results: [
              { request: 'gpu', driver: allocate.driver, pool: nodeName, device: allocate.device },
            ],
          },
        },
        reservedFor: [{ resource: 'pods', name: `${name}-pod`, uid: `${claim.metadata?.uid}-pod` }],
      },
    },
    { subresource: 'status' },
  );
}

const ref = (claim: Claim) => ({
  namespace,
  name: claim.metadata?.name ?? '',
  uid: claim.metadata?.uid ?? '',
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kp-int-'));
  cdiDir = join(dir, 'cdi');
  await mkdir(join(dir, 'plugins_registry'));
  await mkdir(join(dir, 'plugins', DRIVER), { recursive: true });
  namespace = await createTestNamespace(kubeConfig, 'kubeletplugin-');
  await client.create('nodes', { metadata: { name: nodeName } });
  helper = await startPlugin(
    {
      driverName: DRIVER,
      client: createClient(kubeConfig),
      nodeName,
      registrarDirectoryPath: join(dir, 'plugins_registry'),
      pluginDataDirectoryPath: join(dir, 'plugins', DRIVER),
    },
    plugin,
  );
  kubelet = kubeletClients(
    join(dir, 'plugins_registry', `${DRIVER}-reg.sock`),
    join(dir, 'plugins', DRIVER, 'dra.sock'),
  );
});

afterAll(async () => {
  kubelet?.close();
  await helper?.stop();
  client.close();
  await rm(dir, { recursive: true, force: true });
});

describe('registration', () => {
  it('GetInfo names the driver, its DRA socket and versions; registrationStatus() follows NotifyRegistrationStatus', async () => {
    expect(helper.registrationStatus()).toBeUndefined();
    expect(await call(kubelet.registration, 'GetInfo', {})).toEqual({
      type: 'DRAPlugin',
      name: DRIVER,
      endpoint: join(dir, 'plugins', DRIVER, 'dra.sock'),
      supportedVersions: ['v1.DRAPlugin', 'v1beta1.DRAPlugin'],
    });
    await call(kubelet.registration, 'NotifyRegistrationStatus', { pluginRegistered: true });
    expect(helper.registrationStatus()).toEqual({ pluginRegistered: true, error: '' });
    await expect(
      call(kubelet.registration, 'NotifyRegistrationStatus', {
        pluginRegistered: false,
        error: 'version mismatch',
      }),
    ).rejects.toThrow('failed registration process: version mismatch');
    expect(helper.registrationStatus()).toEqual({
      pluginRegistered: false,
      error: 'version mismatch',
    });
  });
});

describe('NodePrepareResources and NodeUnprepareResources', () => {
  it('prepares an allocated claim: the plugin gets the claim as stored, the kubelet its CDI device IDs', async () => {
    const claim = await createClaim('one-gpu', { driver: DRIVER, device: 'gpu-0' });
    const uid = claim.metadata?.uid ?? '';
    prepared.length = 0;
    const response = await call<PrepareResponse>(kubelet.draV1, 'NodePrepareResources', {
      claims: [ref(claim)],
    });
    expect(response).toEqual({
      claims: {
        [uid]: {
          error: '',
          devices: [
            {
              requestNames: ['gpu'],
              poolName: nodeName,
              deviceName: 'gpu-0',
              cdiDeviceIds: [`${VENDOR}/gpu=${uid}-gpu-0`],
            },
          ],
        },
      },
    });
    expect(
      prepared.map((call) =>
        call.map((c) => [c.metadata?.name, c.metadata?.uid, c.metadata?.resourceVersion]),
      ),
    ).toEqual([[['one-gpu', uid, claim.metadata?.resourceVersion]]]);
    expect(existsSync(join(cdiDir, `${transientSpecName(VENDOR, 'gpu', uid)}.json`))).toBe(true);
    // An older kubelet asks through v1beta1 and gets the same answer (no share ID in that version).
    const beta = await call<PrepareResponse>(kubelet.draV1beta1, 'NodePrepareResources', {
      claims: [ref(claim)],
    });
    expect(beta.claims[uid]?.devices[0]?.cdiDeviceIds).toEqual([`${VENDOR}/gpu=${uid}-gpu-0`]);
  });

  it('a replaced claim, a pending one, one of another driver and a missing one fail alone, beside a good one', async () => {
    const good = await createClaim('good', { driver: DRIVER, device: 'gpu-1' });
    const old = await createClaim('replaced', { driver: DRIVER, device: 'gpu-2' });
    await client.delete(CLAIMS, 'replaced', { namespace });
    await waitFor(
      'the old claim gone',
      async () =>
        !(await client.list(CLAIMS, { namespace })).items.some(
          (c) => c.metadata?.uid === old.metadata?.uid,
        ),
      { timeoutMs: 20_000 },
    );
    await createClaim('replaced', { driver: DRIVER, device: 'gpu-2' });
    const pending = await createClaim('pending', undefined);
    const other = await createClaim('other-driver', { driver: 'net.example.com', device: 'nic-0' });
    prepared.length = 0;
    const missing = { namespace, name: 'never-created', uid: 'no-such-uid' };
    const response = await call<PrepareResponse>(kubelet.draV1, 'NodePrepareResources', {
      claims: [ref(good), ref(old), ref(pending), ref(other), missing],
    });
    expect(prepared.map((call) => call.map((c) => c.metadata?.name))).toEqual([['good']]);
    const error = (claim: { uid: string }) => response.claims[claim.uid]?.error;
    expect(error(ref(good))).toBe('');
    expect(error(ref(old))).toMatch(
      new RegExp(
        `^claim ${namespace}/replaced: got replaced \\(UID .+, asked ${old.metadata?.uid}\\)$`,
      ),
    );
    expect(error(ref(pending))).toBe(`claim ${namespace}/pending: not allocated`);
    expect(error(ref(other))).toBe(
      `claim ${namespace}/other-driver: allocation has no device of driver ${DRIVER}`,
    );
    expect(error(missing)).toBe(
      `claim ${namespace}/never-created: retrieve claim: HTTP 404: resourceclaims.resource.k8s.io "never-created" not found`,
    );
  });

  it('unprepares a claim that was deleted: the plugin gets its UID, namespace and name, and the spec is removed', async () => {
    const claim = await createClaim('short-lived', { driver: DRIVER, device: 'gpu-3' });
    const uid = claim.metadata?.uid ?? '';
    await call(kubelet.draV1, 'NodePrepareResources', { claims: [ref(claim)] });
    const spec = join(cdiDir, `${transientSpecName(VENDOR, 'gpu', uid)}.json`);
    expect(existsSync(spec)).toBe(true);
    await client.delete(CLAIMS, 'short-lived', { namespace });
    unprepared.length = 0;
    const response = await call(kubelet.draV1, 'NodeUnprepareResources', { claims: [ref(claim)] });
    expect(response).toEqual({ claims: { [uid]: { error: '' } } });
    expect(unprepared).toEqual([[{ uid, namespace, name: 'short-lived' }]]);
    expect(existsSync(spec)).toBe(false);
  });
});

describe('publishResources', () => {
  it("publishes the node's devices as a ResourceSlice owned by the Node", async () => {
    await helper.publishResources({
      pools: { [nodeName]: { slices: [{ devices: [{ name: 'gpu-0' }, { name: 'gpu-1' }] }] } },
    });
    await waitFor(
      'the slice',
      async () =>
        (
          await client.list<V1ResourceSlice>(SLICES, {
            fieldSelector: `spec.driver=${DRIVER},spec.nodeName=${nodeName}`,
          })
        ).items.length === 1,
      { timeoutMs: 20_000 },
    );
    const [slice] = (
      await client.list<V1ResourceSlice>(SLICES, {
        fieldSelector: `spec.driver=${DRIVER},spec.nodeName=${nodeName}`,
      })
    ).items;
    expect(slice?.spec.devices?.map((d) => d.name)).toEqual(['gpu-0', 'gpu-1']);
    expect(slice?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: nodeName });
    expect(errors).toEqual([]);
  });
});
