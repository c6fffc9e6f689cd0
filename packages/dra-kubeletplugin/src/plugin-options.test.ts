import { InvalidArgumentError } from '@ctrlkit/core';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { resolvePluginOptions } from './plugin-options.js';

const client = new KubeConfig();
client.loadFromClusterAndUser(
  { name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true },
  { name: 'u' },
);

describe('plugin options', () => {
  it('fills in upstream defaults: sockets under /var/lib/kubelet, serialize, both DRA versions', () => {
    const o = resolvePluginOptions({ driverName: 'gpu.example.com', client });
    expect(o.registrarSocketPath).toBe(
      '/var/lib/kubelet/plugins_registry/gpu.example.com-reg.sock',
    );
    expect(o.pluginSocketPath).toBe('/var/lib/kubelet/plugins/gpu.example.com/dra.sock');
    expect([
      o.serialize,
      o.nodeV1,
      o.nodeV1beta1,
      o.healthService,
      o.registrationService,
      o.draService,
    ]).toEqual([true, true, true, true, true, true]);
  });

  it.each([
    [{ client }, 'driverName', 'invalid driverName: driver name must be set'],
    [{ driverName: 'Not_A_Domain', client }, 'driverName', 'must be a DNS subdomain'],
    [{ driverName: 'gpu.example.com' }, 'client', 'invalid client: Kubernetes client must be set'],
    [
      { driverName: 'gpu.example.com', client, serialise: false },
      'serialise',
      'invalid serialise: unknown option',
    ],
    [{ driverName: 'gpu.example.com', client, serialize: 'yes' }, 'serialize', 'must be a boolean'],
    [
      { driverName: 'gpu.example.com', client, nodeName: '' },
      'nodeName',
      'must be a non-empty string',
    ],
    [
      { driverName: 'gpu.example.com', client, nodeV1: false, nodeV1beta1: false },
      'nodeV1',
      'no supported DRA gRPC API is enabled',
    ],
    [
      { driverName: 'gpu.example.com', client, pluginSocket: 'a/b.sock' },
      'pluginSocket',
      'must be a file name',
    ],
    [
      { driverName: 'gpu.example.com', client, registrarDirectoryPath: `/tmp/${'x'.repeat(100)}` },
      'registrarSocketFilename',
      'longer than 107 bytes',
    ],
    [{ driverName: 'gpu.example.com', client, signal: {} }, 'signal', 'must be an AbortSignal'],
  ])('rejects %#: %s', (options, field, message) => {
    try {
      resolvePluginOptions(options as never);
      expect.unreachable();
    } catch (error) {
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).field).toBe(field);
      expect((error as Error).message).toContain(message);
    }
  });
});
