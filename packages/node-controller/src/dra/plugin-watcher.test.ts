// The plugin watcher against real registration sockets in a temp directory, each served by a
// small simulated plugin (a gRPC server of pluginregistration.Registration only).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@ctrlkit/core/testing';
import {
  DRA_PLUGIN_TYPE as PROTOCOL_PLUGIN_TYPE,
  REGISTRATION_SERVICE,
  SERVICE_NAMES,
} from '@ctrlkit/dra-kubeletplugin/protocol';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DRA_PLUGIN_TYPE, SUPPORTED_DRA_SERVICES } from './dra-plugin-client.js';
import { PluginWatcher, validatePluginInfo } from './plugin-watcher.js';

interface SimulatedRegistration {
  readonly statuses: Array<{ pluginRegistered: boolean; error: string }>;
  stop(): Promise<void>;
}

/** Serves GetInfo (`info`) and records NotifyRegistrationStatus on `socket`. */
async function simulatedRegistration(
  socket: string,
  info: { type: string; name: string; supportedVersions: string[] },
): Promise<SimulatedRegistration> {
  const statuses: SimulatedRegistration['statuses'] = [];
  const server = new Server();
  server.addService(REGISTRATION_SERVICE, {
    GetInfo: (_call: unknown, done: (e: null, v: unknown) => void) =>
      done(null, { ...info, endpoint: `${socket}.dra` }),
    NotifyRegistrationStatus: (
      call: { request: { pluginRegistered: boolean; error: string } },
      done: (e: null, v: unknown) => void,
    ) => {
      statuses.push(call.request);
      done(null, {});
    },
  });
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix://${socket}`, ServerCredentials.createInsecure(), (e) =>
      e ? reject(e) : resolve(),
    ),
  );
  return {
    statuses,
    stop: async () => {
      server.forceShutdown();
      await rm(socket, { force: true });
    },
  };
}

let dir: string;
let abort: AbortController;
let running: Promise<void>;
let watcher: PluginWatcher;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugin-watcher-'));
  abort = new AbortController();
});
afterEach(async () => {
  abort.abort();
  await running;
  await rm(dir, { recursive: true, force: true });
});

const start = () => {
  watcher = new PluginWatcher({ dir, rescanIntervalMs: 200 });
  running = watcher.run(abort.signal);
};

describe('PluginWatcher', () => {
  it('names the plugin type and DRA services as the protocol does (written out so gRPC loads late)', () => {
    expect(DRA_PLUGIN_TYPE).toBe(PROTOCOL_PLUGIN_TYPE);
    expect(SUPPORTED_DRA_SERVICES).toEqual([SERVICE_NAMES.draV1, SERVICE_NAMES.draV1beta1]);
  });

  it('registers a socket present at start, preferring v1.DRAPlugin, and tells the plugin', async () => {
    const plugin = await simulatedRegistration(join(dir, 'a-reg.sock'), {
      type: 'DRAPlugin',
      name: 'a.example.com',
      supportedVersions: ['v1beta1.DRAPlugin', 'v1.DRAPlugin'],
    });
    const registered: string[] = [];
    start();
    watcher.onRegistered((name) => registered.push(name));
    await waitFor('registered', () => watcher.plugin('a.example.com'), { timeoutMs: 5_000 });
    expect(watcher.plugin('a.example.com')?.client).toMatchObject({
      endpoint: join(dir, 'a-reg.sock.dra'),
      service: 'v1.DRAPlugin',
    });
    expect(plugin.statuses).toEqual([{ pluginRegistered: true, error: '' }]);
    expect(registered).toEqual(['a.example.com']);
    await plugin.stop();
  });

  it('registers a socket that appears later (v1beta1 only) and deregisters it when it disappears', async () => {
    start();
    const plugin = await simulatedRegistration(join(dir, 'b-reg.sock'), {
      type: 'DRAPlugin',
      name: 'b.example.com',
      supportedVersions: ['v1beta1.DRAPlugin'],
    });
    await waitFor('registered', () => watcher.plugin('b.example.com'), { timeoutMs: 5_000 });
    expect(watcher.plugin('b.example.com')?.client.service).toBe('v1beta1.DRAPlugin');
    await plugin.stop();
    await waitFor('deregistered', () => watcher.drivers(), {
      timeoutMs: 5_000,
      until: (d) => d.length === 0,
    });
  });

  it('refuses a plugin of another type or without a supported version, and says why', async () => {
    const device = await simulatedRegistration(join(dir, 'c-reg.sock'), {
      type: 'DevicePlugin',
      name: 'c.example.com',
      supportedVersions: ['v1beta1'],
    });
    start();
    await waitFor('refused', () => device.statuses, {
      timeoutMs: 5_000,
      until: (s) => s.length > 0,
    });
    expect(device.statuses[0]).toEqual({
      pluginRegistered: false,
      error: 'plugin type "DevicePlugin" is not supported, only DRAPlugin',
    });
    expect(watcher.drivers()).toEqual([]);
    expect(
      validatePluginInfo({ type: 'DRAPlugin', name: 'x', endpoint: '', supportedVersions: ['v2'] }),
    ).toBe('none of the versions ["v2"] is supported, only v1.DRAPlugin, v1beta1.DRAPlugin');
    await device.stop();
  });
});
