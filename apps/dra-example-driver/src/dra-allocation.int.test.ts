// DRA allocation from our slices on a real cluster (one control plane with kube-scheduler and
// kube-controller-manager for this file): the driver publishes the 8 GPUs of a virtual node
// (ctrlkit-virtual-kubelet), both running as their deploy/ ServiceAccounts. kube-scheduler
// allocates claims from our ResourceSlice and binds their pods to that node; a deleted pod's
// device goes to the next claim; a claim for 9 devices stays unschedulable.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AppProcess,
  appPackage,
  SERVICE_ACCOUNT_AUDIT_POLICY,
  startApp,
} from '@ctrlkit/app-testing';
import { noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import {
  COMPONENTS,
  type ControlPlane,
  createTestNamespace,
  freePort,
  startControlPlane,
} from '@ctrlkit/envtest';
import { type Client, createClient, type Wire } from '@ctrlkit/runtime/client';
import {
  type CoreV1Event,
  type KubernetesObject,
  loadAllYaml,
  type ResourceV1ResourceClaim,
  type V1Node,
  type V1Pod,
  type V1ResourceSlice,
  type V1ServiceAccount,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';

const NODE = 'vk-gpus';
/** deploy/deviceclass.yaml (the chart's render for the release "ctrlkit"), selecting our driver. */
const CLASS = 'gpu.example.com';
const DRIVER = 'gpu.example.com';
const WAIT = { timeoutMs: 60_000, intervalMs: 200 };
const driverApp = appPackage('@ctrlkit/dra-example-driver', import.meta.url);

let plane: ControlPlane;
let core: Client;
const CLAIMS = 'resource.k8s.io/v1/resourceclaims';
let namespace: string;
let virtualKubelet: AppProcess;
let driver: AppProcess;

beforeAll(async () => {
  plane = await startControlPlane({
    components: COMPONENTS,
    auditPolicy: SERVICE_ACCOUNT_AUDIT_POLICY,
    logger: noopLogger,
  });
  core = createClient(plane.kubeConfig);
  // The DeviceClass the driver ships.
  const deviceClass = loadAllYaml(
    await readFile(join(driverApp.deployDir, 'deviceclass.yaml'), 'utf8'),
  ) as KubernetesObject[];
  for (const object of deviceClass) await core.create('resource.k8s.io/v1/deviceclasses', object);
  virtualKubelet = await startApp(appPackage('@ctrlkit/virtual-kubelet', import.meta.url), {
    cluster: plane,
    args: [
      `--nodename=${NODE}`,
      `--listen-port=${await freePort()}`,
      '--metrics-addr=0',
      '--healthz-addr=0',
    ],
  });
  driver = await startApp(driverApp, {
    cluster: plane,
    args: [
      `--node-name=${NODE}`,
      '--num-devices=8',
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
    ],
  });
  namespace = await createTestNamespace(plane.kubeConfig, 'dra-');
  await waitFor(
    'the node Ready and its GPUs published',
    async () => {
      const node = await core.get<V1Node>('nodes', NODE);
      const slices = await core.list<V1ResourceSlice>('resource.k8s.io/v1/resourceslices', {
        fieldSelector: `spec.nodeName=${NODE}`,
      });
      return (
        node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' &&
        slices.items.flatMap((s) => s.spec.devices ?? []).length === 8
      );
    },
    WAIT,
  );
  await waitFor('the default ServiceAccount', () =>
    core.get<V1ServiceAccount>('serviceaccounts', 'default', { namespace }),
  );
});
afterAll(async () => {
  try {
    expect(await driver?.stop()).toBe(0);
    expect(await virtualKubelet?.stop()).toBe(0);
  } finally {
    core?.close();
    await plane?.stop();
  }
});

/** A claim for `count` GPUs of the driver's DeviceClass. */
async function claim(name: string, count: number): Promise<void> {
  await core.create(
    CLAIMS,
    {
      metadata: { name },
      spec: {
        devices: {
          requests: [
            {
              name: 'gpus',
              exactly: { deviceClassName: CLASS, allocationMode: 'ExactCount', count },
            },
          ],
        },
      },
    },
    { namespace },
  );
}

/** A pod using claim `name`, tolerating the virtual node's taint; no nodeName: the scheduler decides. */
async function podFor(name: string): Promise<void> {
  await core.create(
    'pods',
    {
      metadata: { name },
      spec: {
        tolerations: [{ key: 'virtual-kubelet.io/provider', operator: 'Exists' }],
        resourceClaims: [{ name: 'gpus', resourceClaimName: name }],
        containers: [{ name: 'main', image: 'cuda', resources: { claims: [{ name: 'gpus' }] } }],
      },
    },
    { namespace },
  );
}

const readClaim = (name: string) => core.get<ResourceV1ResourceClaim>(CLAIMS, name, { namespace });
const readPod = (name: string) => core.get<V1Pod>('pods', name, { namespace });
const devicesOf = (c: Wire<ResourceV1ResourceClaim>) =>
  (c.status?.allocation?.devices?.results ?? []).map((r) => r.device);
const scheduled = (pod: Wire<V1Pod>) =>
  pod.status?.conditions?.find((c) => c.type === 'PodScheduled');

it('kube-scheduler allocates a claim for one GPU from our ResourceSlice and binds its pod to the virtual node, which waits for the driver to prepare it', async () => {
  await claim('one', 1);
  await podFor('one');
  const pod = await waitFor('the pod bound to the virtual node', () => readPod('one'), {
    ...WAIT,
    until: (p) => p.spec?.nodeName === NODE,
  });
  expect(scheduled(pod)?.status).toBe('True');
  // No kubelet plugin runs in this file (node-prepare.int.test.ts has one): the virtual kubelet
  // keeps the pod Pending and says why.
  const events = await waitFor(
    'the prepare event',
    async () =>
      (
        await core.list<CoreV1Event>('events', {
          namespace,
          fieldSelector: 'involvedObject.name=one,reason=FailedPrepareDynamicResources',
        })
      ).items.map((e) => e.message),
    { ...WAIT, until: (m) => m.length > 0 },
  );
  expect(events[0]).toBe(
    `Failed to prepare dynamic resources: claim ${namespace}/one: driver ${DRIVER} is not registered`,
  );
  expect((await readPod('one')).status?.phase).toBe('Pending');
  const allocated = await readClaim('one');
  expect(allocated.status?.allocation?.devices?.results).toEqual([
    expect.objectContaining({
      request: 'gpus',
      driver: DRIVER,
      pool: NODE,
      device: expect.stringMatching(/^gpu-[0-7]$/),
    }),
  ]);
  expect(allocated.status?.allocation?.nodeSelector?.nodeSelectorTerms).toEqual([
    expect.objectContaining({
      matchFields: [{ key: 'metadata.name', operator: 'In', values: [NODE] }],
    }),
  ]);
  expect(allocated.status?.reservedFor).toEqual([
    expect.objectContaining({ resource: 'pods', name: 'one', uid: pod.metadata?.uid }),
  ]);
});

it('deleting the pod frees its device for the next claim, which waits until then', async () => {
  const first = devicesOf(await readClaim('one'));
  // The other seven, so that nothing else is free.
  await claim('seven', 7);
  await podFor('seven');
  await waitFor('the seven allocated', () => readClaim('seven'), {
    ...WAIT,
    until: (c) => devicesOf(c).length === 7,
  });
  await claim('next', 1);
  await podFor('next');
  const waiting = await waitFor('the next pod unschedulable', () => readPod('next'), {
    ...WAIT,
    until: (p) => scheduled(p)?.reason === 'Unschedulable',
  });
  expect(waiting.spec?.nodeName).toBeUndefined();

  await core.delete('pods', 'one', { namespace });
  // kube-controller-manager's resourceclaim controller drops the reservation and the allocation.
  await waitFor('the first claim deallocated', () => readClaim('one'), {
    ...WAIT,
    until: (c) => c.status?.allocation === undefined,
  });
  const next = await waitFor('the next pod bound', () => readPod('next'), {
    ...WAIT,
    until: (p) => p.spec?.nodeName === NODE,
  });
  expect(scheduled(next)?.status).toBe('True');
  expect(devicesOf(await readClaim('next'))).toEqual(first);
});

it("a claim for 9 GPUs on the 8-GPU node stays unschedulable, the scheduler's reason in the pod's conditions", async () => {
  // Every GPU free again first.
  for (const name of ['seven', 'next']) await core.delete('pods', name, { namespace });
  await waitFor(
    'all eight free',
    async () => {
      const claims = await core.list<ResourceV1ResourceClaim>(CLAIMS, { namespace });
      return claims.items.every((c) => c.status?.allocation === undefined);
    },
    WAIT,
  );
  await claim('nine', 9);
  await podFor('nine');
  const pod = await waitFor('the scheduler to give up on it', () => readPod('nine'), {
    ...WAIT,
    until: (p) => scheduled(p)?.reason === 'Unschedulable',
  });
  expect(scheduled(pod)).toMatchObject({ status: 'False', reason: 'Unschedulable' });
  expect(scheduled(pod)?.message).toMatch(
    /^0\/1 nodes are available: 1 cannot allocate all claims/,
  );
  expect(pod.spec?.nodeName).toBeUndefined();
  expect((await readClaim('nine')).status?.allocation).toBeUndefined();
});
