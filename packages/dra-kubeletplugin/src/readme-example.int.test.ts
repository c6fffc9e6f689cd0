// The README example on the test control plane: temporary directories instead of
// /var/lib/kubelet and /var/run/cdi, envtest's kubeconfig instead of loadKubeConfig(), and a
// claim prepared through it with the kubelet's .proto clients.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import type { ResourceV1ResourceClaim } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { call, kubeletClients, type PrepareResponse } from '../test/kubelet-client.js';
import { removeSpec, transientSpecName, writeSpec } from './cdi/spec-files.js';
import type { PrepareResult } from './dra-plugin.js';
import { startPlugin } from './helper.js';

it('runs the README example and prepares a claim through it', async () => {
  const kubeConfig = testKubeConfig();
  const nodeName = `readme-${Math.random().toString(36).slice(2, 7)}`;
  const setup = createClient(kubeConfig);
  await setup.create('nodes', { metadata: { name: nodeName } });
  const dir = await mkdtemp(join(tmpdir(), 'kp-readme-'));
  const registry = join(dir, 'plugins_registry');
  const pluginDir = join(dir, 'plugins', 'gpu.example.com');
  await mkdir(registry);
  await mkdir(pluginDir, { recursive: true });

  // From the README (client, cdiDir and the directories adapted).
  const client = createClient(kubeConfig);
  const cdiDir = join(dir, 'cdi');
  const helper = await startPlugin(
    {
      driverName: 'gpu.example.com',
      client,
      nodeName,
      registrarDirectoryPath: registry,
      pluginDataDirectoryPath: pluginDir,
    },
    {
      async prepareResourceClaims(claims) {
        const results = new Map<string, PrepareResult>();
        for (const claim of claims) {
          const uid = claim.metadata!.uid!;
          const mine = claim.status!.allocation!.devices!.results!.filter(
            (r) => r.driver === 'gpu.example.com',
          );
          await writeSpec(
            cdiDir,
            {
              kind: 'k8s.gpu.example.com/gpu',
              devices: mine.map((r, i) => ({
                name: `${uid}-${r.device}`,
                containerEdits: { env: [`GPU_DEVICE_${i}=${r.device}`] },
              })),
            },
            transientSpecName('k8s.gpu.example.com', 'gpu', uid),
          );
          results.set(uid, {
            devices: mine.map((r) => ({
              requests: [r.request],
              poolName: r.pool,
              deviceName: r.device,
              cdiDeviceIds: [`k8s.gpu.example.com/gpu=${uid}-${r.device}`],
            })),
          });
        }
        return results;
      },
      async unprepareResourceClaims(refs) {
        for (const ref of refs)
          await removeSpec(cdiDir, transientSpecName('k8s.gpu.example.com', 'gpu', ref.uid));
        return new Map(refs.map((ref) => [ref.uid, null]));
      },
      handleError(error, message) {
        throw new Error(`${message}: ${error.message}`);
      },
    },
  );
  await helper.publishResources({
    pools: { [nodeName]: { slices: [{ devices: [{ name: 'gpu-0' }] }] } },
  });

  // A claim allocated as the scheduler would, prepared and unprepared by "the kubelet".
  const namespace = await createTestNamespace(kubeConfig, 'readme-');
  const claimResource = 'resource.k8s.io/v1/resourceclaims';
  const created = await setup.create<ResourceV1ResourceClaim>(claimResource, {
    metadata: { name: 'gpu', namespace },
    spec: {
      devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] },
    },
  });
  await setup.replace(
    claimResource,
    {
      ...created,
      status: {
        allocation: {
          devices: {
            results: [
              { request: 'gpu', driver: 'gpu.example.com', pool: nodeName, device: 'gpu-0' },
            ],
          },
        },
      },
    },
    { subresource: 'status' },
  );
  const uid = created.metadata!.uid!;
  const kubelet = kubeletClients(
    join(registry, 'gpu.example.com-reg.sock'),
    join(pluginDir, 'dra.sock'),
  );
  try {
    const claims = [{ namespace, name: 'gpu', uid }];
    const response = await call<PrepareResponse>(kubelet.draV1, 'NodePrepareResources', { claims });
    expect(response.claims[uid]?.devices[0]?.cdiDeviceIds).toEqual([
      `k8s.gpu.example.com/gpu=${uid}-gpu-0`,
    ]);
    const spec = join(cdiDir, `k8s.gpu.example.com-gpu_${uid}.json`);
    expect(JSON.parse(await readFile(spec, 'utf8')).devices[0].containerEdits.env).toEqual([
      'GPU_DEVICE_0=gpu-0',
    ]);
    await call(kubelet.draV1, 'NodeUnprepareResources', { claims });
    expect(existsSync(spec)).toBe(false);
  } finally {
    kubelet.close();
    await helper.stop();
    setup.close();
    await rm(dir, { recursive: true, force: true });
  }
});
