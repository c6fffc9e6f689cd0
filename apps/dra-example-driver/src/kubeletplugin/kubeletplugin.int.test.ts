// The built ctrlkit-dra-example-kubeletplugin, as deploy/'s ServiceAccount, on the real
// apiserver: the test allocates a claim as the scheduler would, calls NodePrepareResources
// with a gRPC client built only from the kubelet's .proto files (shipped in
// @ctrlkit/dra-kubeletplugin's proto/), reads the CDI spec, restarts the plugin, prepares
// again (idempotent), and unprepares (spec removed).

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { errorMessage } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient, type Wire } from '@ctrlkit/runtime/client';
import { type Client, credentials, loadPackageDefinition } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import type {
  ResourceV1ResourceClaim,
  V1DeviceAllocationConfiguration,
  V1ResourceSlice,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';

const app = appPackage('@ctrlkit/dra-example-driver', import.meta.url);
const protoDir = join(
  dirname(createRequire(import.meta.url).resolve('@ctrlkit/dra-kubeletplugin/package.json')),
  'proto',
);
const kubeConfig = testKubeConfig();
const api = createClient(kubeConfig);
const CLAIMS = 'resource.k8s.io/v1/resourceclaims';
const nodeName = `kp-app-${Math.random().toString(36).slice(2, 7)}`;

interface PrepareResponse {
  claims: Record<
    string,
    { error: string; devices: Array<{ deviceName: string; cdiDeviceIds: string[] }> }
  >;
}

function draClient(socket: string): Client {
  const loaded = loadPackageDefinition(
    loadSync(join(protoDir, 'dra_v1_api.proto'), { longs: Number, enums: String, defaults: true }),
  ) as unknown as {
    k8s: {
      io: {
        kubelet: {
          pkg: { apis: { dra: { v1: { DRAPlugin: new (a: string, c: unknown) => Client } } } };
        };
      };
    };
  };
  return new loaded.k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin(
    `unix://${socket}`,
    credentials.createInsecure(),
  );
}

function call<T>(client: Client, method: string, request: unknown): Promise<T> {
  const fn = (
    client as unknown as Record<string, (r: unknown, cb: (e: Error | null, v: T) => void) => void>
  )[method];
  return new Promise((resolve, reject) =>
    fn?.call(client, request, (error, value) => (error ? reject(error) : resolve(value))),
  );
}

let dir: string;
let namespace: string;
let plugin: AppProcess | undefined;

async function startPluginProcess(): Promise<AppProcess> {
  const started = await startApp(app, {
    bin: 'ctrlkit-dra-example-kubeletplugin',
    args: [
      `--node-name=${nodeName}`,
      '--num-devices=2',
      `--cdi-root=${join(dir, 'cdi')}`,
      `--kubelet-registrar-directory-path=${join(dir, 'registry')}`,
      `--kubelet-plugins-directory-path=${join(dir, 'plugins')}`,
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
    ],
  });
  await waitFor(
    'the DRA socket',
    () => existsSync(join(dir, 'plugins', 'gpu.example.com', 'dra.sock')),
    {
      until: (up) => up,
      timeoutMs: 60_000,
    },
  ).catch((error: unknown) => {
    throw new Error(`${errorMessage(error)}; logs:\n${started.logs.join('\n')}`, { cause: error });
  });
  return started;
}

async function allocatedClaim(
  name: string,
  device: string,
  config: V1DeviceAllocationConfiguration[] = [],
) {
  const claim = await api.create<ResourceV1ResourceClaim>(
    CLAIMS,
    {
      metadata: { name, namespace },
      spec: {
        devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] },
      },
    },
    { namespace },
  );
  await api.replace<Wire<ResourceV1ResourceClaim>>(
    CLAIMS,
    {
      ...claim,
      status: {
        allocation: {
          devices: {
            results: [{ request: 'gpu', driver: 'gpu.example.com', pool: nodeName, device }],
            config,
          },
        },
        reservedFor: [{ resource: 'pods', name: `${name}-pod`, uid: `${claim.metadata?.uid}-pod` }],
      },
    },
    { namespace, subresource: 'status' },
  );
  return { namespace, name, uid: claim.metadata?.uid ?? '' };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kpa-'));
  await mkdir(join(dir, 'registry'));
  namespace = await createTestNamespace(kubeConfig, 'kubeletplugin-app-');
  await api.create('nodes', { metadata: { name: nodeName } });
});

afterAll(async () => {
  await plugin?.stop();
  await rm(dir, { recursive: true, force: true });
});

it('publishes the GPUs, prepares a claim into a CDI spec, and after a restart unprepares it', async () => {
  plugin = await startPluginProcess();
  const slices = await waitFor(
    'the node slice',
    async () =>
      (
        await api.list<V1ResourceSlice>('resource.k8s.io/v1/resourceslices', {
          fieldSelector: `spec.driver=gpu.example.com,spec.nodeName=${nodeName}`,
        })
      ).items,
    { until: (items) => items.length === 1, timeoutMs: 60_000 },
  );
  expect(slices[0]?.spec.devices?.map((d) => d.name)).toEqual(['gpu-0', 'gpu-1']);

  const socket = join(dir, 'plugins', 'gpu.example.com', 'dra.sock');
  const longSlices: V1DeviceAllocationConfiguration = {
    source: 'FromClaim',
    opaque: {
      driver: 'gpu.example.com',
      parameters: {
        apiVersion: 'gpu.resource.example.com/v1alpha1',
        kind: 'GpuConfig',
        sharing: { strategy: 'TimeSlicing', timeSlicingConfig: { interval: 'Long' } },
      },
    },
  };
  const ref = await allocatedClaim('gpu-claim', 'gpu-0', [longSlices]);
  let kubelet = draClient(socket);
  const response = await call<PrepareResponse>(kubelet, 'NodePrepareResources', { claims: [ref] });
  expect(response.claims[ref.uid]).toEqual({
    error: '',
    devices: [
      expect.objectContaining({
        deviceName: 'gpu-0',
        cdiDeviceIds: [
          'k8s.gpu.example.com/gpu=common',
          `k8s.gpu.example.com/gpu=${ref.uid}-gpu-0`,
        ],
      }),
    ],
  });
  const specPath = join(dir, 'cdi', `k8s.gpu.example.com-gpu_${ref.uid}.json`);
  const spec = JSON.parse(await readFile(specPath, 'utf8'));
  expect(spec.devices[0].containerEdits.env).toEqual(
    expect.arrayContaining([
      'GPU_DEVICE_0=gpu-0',
      'GPU_DEVICE_0_SHARING_STRATEGY=TimeSlicing',
      'GPU_DEVICE_0_TIMESLICE_INTERVAL=Long',
    ]),
  );

  // Another claim allocated the same GPU (say, a stale allocation) is refused with the reason.
  const other = await allocatedClaim('other-claim', 'gpu-0');
  const refused = await call<PrepareResponse>(kubelet, 'NodePrepareResources', { claims: [other] });
  expect(refused.claims[other.uid]?.error).toContain(
    `GPU gpu-0 is already prepared for claim ${namespace}/gpu-claim (${ref.uid})`,
  );
  // An invalid GpuConfig fails its claim with the field at fault; nothing is prepared for it.
  const badConfig: V1DeviceAllocationConfiguration = {
    source: 'FromClaim',
    opaque: {
      driver: 'gpu.example.com',
      parameters: {
        apiVersion: 'gpu.resource.example.com/v1alpha1',
        kind: 'GpuConfig',
        sharing: { strategy: 'Magic' },
      },
    },
  };
  const invalid = await allocatedClaim('invalid-config', 'gpu-1', [badConfig]);
  const failed = await call<PrepareResponse>(kubelet, 'NodePrepareResources', {
    claims: [invalid],
  });
  expect(failed.claims[invalid.uid]?.error).toContain(
    'status.allocation.devices.config[0].opaque.parameters.sharing.strategy: unknown GPU sharing strategy: "Magic"',
  );
  expect(existsSync(join(dir, 'cdi', `k8s.gpu.example.com-gpu_${invalid.uid}.json`))).toBe(false);
  kubelet.close();

  expect(await plugin.stop()).toBe(0);
  plugin = await startPluginProcess();
  kubelet = draClient(socket);
  const again = await call<PrepareResponse>(kubelet, 'NodePrepareResources', { claims: [ref] });
  expect(again.claims[ref.uid]).toEqual(response.claims[ref.uid]);
  const unprepared = await call<{ claims: Record<string, { error: string }> }>(
    kubelet,
    'NodeUnprepareResources',
    { claims: [ref] },
  );
  expect(unprepared.claims[ref.uid]).toEqual({ error: '' });
  expect(existsSync(specPath)).toBe(false);
  kubelet.close();
}, 180_000);
