import {
  DEFAULT_LEASE_DURATION_SECONDS,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_STATUS_UPDATE_INTERVAL_MS,
} from '@ctrlkit/node-controller';
import { describe, expect, it } from 'vitest';
import { FLAGS, parseFlags, usage } from './flags.js';

describe('flags', () => {
  it('--help lists every flag with its default', () => {
    const text = usage();
    for (const [name, spec] of Object.entries(FLAGS)) {
      expect(text).toContain(`--${name}`);
      expect(text).toContain(
        `(default ${spec.default === undefined ? '(none)' : String(spec.default)})`,
      );
    }
  });

  it("defaults are the library's and virtual-kubelet's", () => {
    const flags = parseFlags([]);
    expect(flags).toMatchObject({
      nodename: 'virtual-kubelet',
      provider: 'mock',
      podSyncWorkers: 10,
      enableNodeLease: true,
      nodeLeaseDurationSeconds: DEFAULT_LEASE_DURATION_SECONDS,
      nodePingIntervalMs: DEFAULT_PING_INTERVAL_MS,
      nodeStatusUpdateIntervalMs: DEFAULT_STATUS_UPDATE_INTERVAL_MS,
      metricsAddr: ':10255',
      listenPort: 10250,
      logLevel: 'info',
      help: false,
    });
  });

  it('parses values and --no-enable-node-lease', () => {
    const flags = parseFlags([
      '--nodename',
      'vk-1',
      '--pod-sync-workers=4',
      '--no-enable-node-lease',
      '--mock-start-latency',
      '250',
    ]);
    expect(flags).toMatchObject({
      nodename: 'vk-1',
      podSyncWorkers: 4,
      enableNodeLease: false,
      mockStartLatencyMs: 250,
    });
  });

  it('rejects bad values naming the flag', () => {
    expect(() => parseFlags(['--pod-sync-workers', '0'])).toThrow(
      expect.objectContaining({ field: '--pod-sync-workers' }),
    );
    expect(() => parseFlags(['--provider', 'aws'])).toThrow(
      expect.objectContaining({ field: '--provider' }),
    );
    expect(() => parseFlags(['--mock-create-failure-rate', '2'])).toThrow(
      expect.objectContaining({ field: '--mock-create-failure-rate' }),
    );
    expect(() => parseFlags(['--bogus'])).toThrow(expect.objectContaining({ field: 'flags' }));
  });
});
