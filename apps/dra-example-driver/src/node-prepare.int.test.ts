// The whole DRA path on a real cluster (one control plane with kube-scheduler and
// kube-controller-manager for this file): the built ctrlkit-dra-example-kubeletplugin
// publishes the GPUs of a virtual node (ctrlkit-virtual-kubelet with the process provider)
// and registers in that node's --plugins-registry-dir; kube-scheduler allocates a pod's claim;
// the virtual kubelet prepares it over gRPC and starts the container's process with the
// environment of the plugin's CDI spec. Both run as their deploy/ ServiceAccounts.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
import { type Client, createClient } from '@ctrlkit/runtime/client';
import {
  type CoreV1Event,
  type KubernetesObject,
  loadAllYaml,
  type V1Node,
  type V1Pod,
  type V1ResourceSlice,
  type V1ServiceAccount,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';

const NODE = 'vk-prepare';
const CLASS = 'gpu.example.com';
const WAIT = { timeoutMs: 60_000, intervalMs: 200 };
const driverApp = appPackage('@ctrlkit/dra-example-driver', import.meta.url);

let plane: ControlPlane;
let core: Client;
let dir: string;
let namespace: string;
let virtualKubelet: AppProcess;
let plugin: AppProcess;

beforeAll(async () => {
  plane = await startControlPlane({
    components: COMPONENTS,
    auditPolicy: SERVICE_ACCOUNT_AUDIT_POLICY,
    logger: noopLogger,
  });
  core = createClient(plane.kubeConfig);
  dir = await mkdtemp(join(tmpdir(), 'dra-prepare-'));
  await mkdir(join(dir, 'out'));
  const deviceClass = loadAllYaml(
    await readFile(join(driverApp.deployDir, 'deviceclass.yaml'), 'utf8'),
  ) as KubernetesObject[];
  for (const object of deviceClass) await core.create('resource.k8s.io/v1/deviceclasses', object);
  virtualKubelet = await startApp(appPackage('@ctrlkit/virtual-kubelet', import.meta.url), {
    cluster: plane,
    args: [
      `--nodename=${NODE}`,
      '--provider=process',
      `--plugins-registry-dir=${join(dir, 'registry')}`,
      `--cdi-spec-dirs=${join(dir, 'cdi')}`,
      `--listen-port=${await freePort()}`,
      '--metrics-addr=0',
      '--healthz-addr=0',
    ],
  });
  await waitFor('the node registered', () => core.get<V1Node>('nodes', NODE), WAIT);
  await waitFor('the registry dir', () => existsSync(join(dir, 'registry')), {
    ...WAIT,
    until: (up) => up,
  });
  plugin = await startApp(driverApp, {
    cluster: plane,
    bin: 'ctrlkit-dra-example-kubeletplugin',
    args: [
      `--node-name=${NODE}`,
      '--num-devices=4',
      `--cdi-root=${join(dir, 'cdi')}`,
      `--kubelet-registrar-directory-path=${join(dir, 'registry')}`,
      `--kubelet-plugins-directory-path=${join(dir, 'plugins')}`,
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
    ],
  });
  namespace = await createTestNamespace(plane.kubeConfig, 'dra-prepare-');
  await waitFor(
    'the GPUs published',
    async () =>
      (
        await core.list<V1ResourceSlice>('resource.k8s.io/v1/resourceslices', {
          fieldSelector: `spec.nodeName=${NODE}`,
        })
      ).items.flatMap((s) => s.spec.devices ?? []).length === 4,
    { ...WAIT, until: (done) => done },
  );
  await waitFor('the default ServiceAccount', () =>
    core.get<V1ServiceAccount>('serviceaccounts', 'default', { namespace }),
  );
});

afterAll(async () => {
  try {
    expect(await plugin?.stop()).toBe(0);
    expect(await virtualKubelet?.stop()).toBe(0);
  } finally {
    core?.close();
    await plane?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }
});

/** A claim template for one GPU, with `sharing` as its opaque GpuConfig when given. */
async function template(name: string, sharing?: Record<string, unknown>): Promise<void> {
  const config = sharing && [
    {
      opaque: {
        driver: CLASS,
        parameters: { apiVersion: 'gpu.resource.example.com/v1alpha1', kind: 'GpuConfig', sharing },
      },
    },
  ];
  await core.create(
    'resource.k8s.io/v1/resourceclaimtemplates',
    {
      metadata: { name },
      spec: {
        spec: {
          devices: {
            requests: [{ name: 'gpu', exactly: { deviceClassName: CLASS } }],
            ...(config && { config }),
          },
        },
      },
    },
    { namespace },
  );
}

/** A pod with a claim from template `name`; its process writes its GPU env to out/<name>. */
async function podFor(name: string): Promise<void> {
  const out = join(dir, 'out', name);
  await core.create(
    'pods',
    {
      metadata: { name },
      spec: {
        tolerations: [{ key: 'virtual-kubelet.io/provider', operator: 'Exists' }],
        terminationGracePeriodSeconds: 1,
        resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: name }],
        containers: [
          {
            name: 'main',
            image: 'busybox',
            command: [
              '/bin/sh',
              '-c',
              `env | grep -E '^(GPU_DEVICE_0|DRA_RESOURCE_DRIVER_NAME|KUBERNETES_NODE_NAME)' | sort > ${out}.tmp; mv ${out}.tmp ${out}; exec sleep 600`,
            ],
            resources: { claims: [{ name: 'gpu' }] },
          },
        ],
      },
    },
    { namespace },
  );
}

const readPod = (name: string) => core.get<V1Pod>('pods', name, { namespace });
const claimSpecs = async () =>
  (await readdir(join(dir, 'cdi'))).filter(
    (f) => f.startsWith('k8s.gpu.example.com-gpu_') && f !== 'k8s.gpu.example.com-gpu_common.json',
  );

it('kube-scheduler allocates the claim, the virtual kubelet prepares it through the plugin, the process prints GPU_DEVICE_0; deleted, the claim is unprepared', async () => {
  await template('one', { strategy: 'TimeSlicing', timeSlicingConfig: { interval: 'Long' } });
  await podFor('one');
  await waitFor('one Running', () => readPod('one'), {
    ...WAIT,
    until: (p) => p.status?.phase === 'Running',
  });
  const env = await waitFor('the process output', () => readFile(join(dir, 'out', 'one'), 'utf8'));
  expect(env).toMatch(/^GPU_DEVICE_0=gpu-[0-3]\n/m);
  expect(env).toContain('GPU_DEVICE_0_SHARING_STRATEGY=TimeSlicing');
  expect(env).toContain('GPU_DEVICE_0_TIMESLICE_INTERVAL=Long');
  // The node-wide `common` device of the plugin's other spec, which every claim's devices name too.
  expect(env).toContain(`KUBERNETES_NODE_NAME=${NODE}\n`);
  expect(env).toContain('DRA_RESOURCE_DRIVER_NAME=gpu.example.com\n');
  expect(await claimSpecs()).toHaveLength(1);

  await core.delete('pods', 'one', { namespace });
  await waitFor('the claim spec removed', claimSpecs, {
    ...WAIT,
    until: (specs) => specs.length === 0,
  });
});

it("an invalid GpuConfig keeps the pod Pending with the plugin's error in its events", async () => {
  await template('bad', { strategy: 'Magic' });
  await podFor('bad');
  const events = await waitFor(
    'the prepare error',
    async () =>
      (
        await core.list<CoreV1Event>('events', {
          namespace,
          fieldSelector: 'involvedObject.name=bad,reason=FailedPrepareDynamicResources',
        })
      ).items.map((e) => e.message ?? ''),
    { ...WAIT, until: (m) => m.some((x) => x.includes('Magic')) },
  );
  expect(events.find((m) => m.includes('Magic'))).toMatch(
    /^Failed to prepare dynamic resources: claim dra-prepare-.*\/bad-gpu-.*: driver gpu\.example\.com: .*unknown GPU sharing strategy: "Magic"/,
  );
  expect((await readPod('bad')).status?.phase).toBe('Pending');
});
