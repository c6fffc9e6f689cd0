import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@ctrlkit/core';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, kubeletClients } from '../test/kubelet-client.js';
import type { DeviceHealthReport, DRAPlugin } from './dra-plugin.js';
import { type Helper, startPlugin } from './helper.js';

// No apiserver here: these calls never read a claim (the integration tests do).
const kubeConfig = new KubeConfig();
kubeConfig.loadFromClusterAndUser(
  { name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true },
  { name: 'u' },
);

let dir: string;
let helper: Helper | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kp-'));
  await mkdir(join(dir, 'registry'));
  await mkdir(join(dir, 'plugin'));
});
afterEach(async () => {
  await helper?.stop();
  helper = undefined;
  await rm(dir, { recursive: true, force: true });
});

const plugin: DRAPlugin = {
  prepareResourceClaims: async () => new Map(),
  unprepareResourceClaims: async (refs) =>
    new Map(refs.map((r) => [r.uid, r.name === 'busy' ? new Error('busy') : null])),
  handleError: () => {},
};

const options = () => ({
  driverName: 'gpu.example.com',
  client: kubeConfig,
  registrarDirectoryPath: join(dir, 'registry'),
  pluginDataDirectoryPath: join(dir, 'plugin'),
});

describe('startPlugin', () => {
  it('serves unprepare on v1 and v1beta1 over the DRA socket; stop removes both sockets', async () => {
    helper = await startPlugin(options(), plugin);
    const registrar = join(dir, 'registry', 'gpu.example.com-reg.sock');
    const dra = join(dir, 'plugin', 'dra.sock');
    const kubelet = kubeletClients(registrar, dra);
    try {
      const request = {
        claims: [
          { namespace: 'ns', name: 'gone', uid: 'u1' },
          { namespace: 'ns', name: 'busy', uid: 'u2' },
        ],
      };
      const expected = { claims: { u1: { error: '' }, u2: { error: 'busy' } } };
      expect(await call(kubelet.draV1, 'NodeUnprepareResources', request)).toEqual(expected);
      expect(await call(kubelet.draV1beta1, 'NodeUnprepareResources', request)).toEqual(expected);
    } finally {
      kubelet.close();
    }
    await helper.stop();
    expect([existsSync(registrar), existsSync(dra)]).toEqual([false, false]);
  });

  it('advertises the health service only for a plugin that watches health, and streams its reports', async () => {
    helper = await startPlugin(options(), plugin);
    expect(helper.supportedServices).toEqual(['v1.DRAPlugin', 'v1beta1.DRAPlugin']);
    await helper.stop();
    const report: DeviceHealthReport = {
      devices: [
        {
          poolName: 'node-a',
          deviceName: 'gpu-0',
          health: 'Unhealthy',
          lastUpdatedMs: 1_700_000_000_500,
          healthCheckTimeoutMs: 60_000,
          message: 'ECC errors',
        },
      ],
    };
    helper = await startPlugin(options(), {
      ...plugin,
      async *watchHealthStatus(signal) {
        yield report;
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
      },
    });
    expect(helper.supportedServices).toEqual([
      'v1.DRAPlugin',
      'v1beta1.DRAPlugin',
      'v1.DRAResourceHealth',
      'v1alpha1.DRAResourceHealth',
    ]);
    const kubelet = kubeletClients(
      join(dir, 'registry', 'gpu.example.com-reg.sock'),
      join(dir, 'plugin', 'dra.sock'),
    );
    try {
      const stream = (
        kubelet.healthV1 as unknown as {
          NodeWatchResources(r: unknown): NodeJS.ReadableStream & { cancel(): void };
        }
      ).NodeWatchResources({});
      const first = await new Promise((resolve, reject) => {
        stream.once('data', resolve);
        stream.once('error', reject);
      });
      stream.on('error', () => {}); // the cancel below ends the stream with CANCELLED
      stream.cancel();
      expect(first).toEqual({
        devices: [
          {
            device: { poolName: 'node-a', deviceName: 'gpu-0' },
            health: 'UNHEALTHY',
            lastUpdatedTime: 1_700_000_000,
            healthCheckTimeoutSeconds: 60,
            message: 'ECC errors',
          },
        ],
      });
    } finally {
      kubelet.close();
    }
  });

  it('streams health to an older kubelet on v1alpha1 too, defaults filled in', async () => {
    helper = await startPlugin(options(), {
      ...plugin,
      async *watchHealthStatus(signal) {
        yield { devices: [{ poolName: 'p', deviceName: 'd', health: 'Healthy' }] };
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
      },
    });
    const kubelet = kubeletClients(
      join(dir, 'registry', 'gpu.example.com-reg.sock'),
      join(dir, 'plugin', 'dra.sock'),
    );
    try {
      const stream = (
        kubelet.healthV1alpha1 as unknown as {
          NodeWatchResources(r: unknown): NodeJS.ReadableStream & { cancel(): void };
        }
      ).NodeWatchResources({});
      const first = await new Promise((resolve, reject) => {
        stream.once('data', resolve);
        stream.once('error', reject);
      });
      stream.on('error', () => {});
      stream.cancel();
      expect(first).toEqual({
        devices: [
          {
            device: { poolName: 'p', deviceName: 'd' },
            health: 'HEALTHY',
            lastUpdatedTime: 0,
            healthCheckTimeoutSeconds: 0,
            message: '',
          },
        ],
      });
    } finally {
      kubelet.close();
    }
  });

  it('answers UNIMPLEMENTED on the health stream of a plugin without watchHealthStatus', async () => {
    helper = await startPlugin(options(), plugin);
    const kubelet = kubeletClients(
      join(dir, 'registry', 'gpu.example.com-reg.sock'),
      join(dir, 'plugin', 'dra.sock'),
    );
    try {
      const stream = (
        kubelet.healthV1 as unknown as { NodeWatchResources(r: unknown): NodeJS.ReadableStream }
      ).NodeWatchResources({});
      stream.on('data', () => {});
      const error = await new Promise<{ code: number; details: string }>((resolve) =>
        stream.once('error', resolve as never),
      );
      expect([error.code, error.details]).toEqual([
        12,
        'device health reporting is not supported by this driver',
      ]);
    } finally {
      kubelet.close();
    }
  });

  it('stops at once when its signal is already aborted, and when it aborts later', async () => {
    const socket = join(dir, 'plugin', 'dra.sock');
    helper = await startPlugin({ ...options(), signal: AbortSignal.abort() }, plugin);
    expect(existsSync(socket)).toBe(false);
    const controller = new AbortController();
    helper = await startPlugin({ ...options(), signal: controller.signal }, plugin);
    expect(existsSync(socket)).toBe(true);
    controller.abort();
    await helper.stop();
    expect(existsSync(socket)).toBe(false);
  });

  it('rejects a missing directory, a bad plugin and a bad option with InvalidArgumentError naming it', async () => {
    await expect(
      startPlugin({ ...options(), registrarDirectoryPath: join(dir, 'nope') }, plugin),
    ).rejects.toThrow(
      `invalid registrarDirectoryPath: directory ${join(dir, 'nope')} does not exist`,
    );
    await expect(
      startPlugin(options(), { ...plugin, handleError: undefined } as never),
    ).rejects.toThrow('invalid plugin.handleError: must be a function');
    await expect(startPlugin({ ...options(), driverName: '' }, plugin)).rejects.toSatisfy((error) =>
      InvalidArgumentError.isInstance(error),
    );
  });

  it('publishResources needs nodeName', async () => {
    helper = await startPlugin(options(), plugin);
    await expect(helper.publishResources({ pools: {} })).rejects.toThrow(
      'invalid nodeName: no nodeName was set to publish resources',
    );
  });
});
