//! Test harness for the sharding integration tests: in-process replicas of a sharded ConfigMap controller, and a reconcile log to check.

import { type Logger, noopLogger, realClock, sleep } from '@ctrlkit/core';
import type { KubeConfig } from '@kubernetes/client-node';
import { Manager } from '../src/manager/manager.js';
import { Shard } from '../src/sharding/shard.js';
import { Sharder } from '../src/sharding/sharder.js';

/** One reconcile, by whom, from when to when (performance.now() ms, one process). */
export interface ReconcileEntry {
  key: string;
  shard: string;
  start: number;
  end: number;
}

/** One in-process replica: a Manager with a Shard (one sharded ConfigMap controller) and a Sharder candidate. */
export interface TestReplica {
  name: string;
  manager: Manager;
  shard: Shard;
  sharder: Sharder;
  stop: AbortController;
  running: Promise<void>;
}

/** Short Lease timings for tests: 3 s lease, 2 s renew deadline, 0.4 s retry. */
export const TEST_RING_TIMING = {
  leaseDurationMs: 3_000,
  renewDeadlineMs: 2_000,
  retryPeriodMs: 400,
};

/** Logs to stderr when `SHARDING_TEST_LOG` is set (to debug a test), else nowhere. */
function testLogger(name: string): Logger {
  if (!process.env.SHARDING_TEST_LOG) return noopLogger;
  const started = performance.now();
  const at =
    (level: string) =>
    (context: object, message?: string): void => {
      const ms = Math.round(performance.now() - started);
      process.stderr.write(`${name} ${level} ${ms} ${message ?? ''} ${JSON.stringify(context)}\n`);
    };
  return { debug: () => {}, info: at('info'), warn: at('warn'), error: at('error') };
}

/** Starts a replica of ring `ring` in `namespace`; its reconciles go to `log`. */
export function startTestReplica(options: {
  kubeConfig: KubeConfig;
  namespace: string;
  ring: string;
  name: string;
  log: ReconcileEntry[];
  resources?: string[];
  reconcileMs?: number;
}): TestReplica {
  const { kubeConfig, namespace, ring, name, log } = options;
  const logger = testLogger(name);
  const manager = new Manager({
    logger,
    kubeConfig,
    program: { name: `shard-${name}`, version: '0.0.0' },
    metricsBindAddress: '0',
    healthProbeBindAddress: '0',
    cache: { namespace },
    qps: 500,
    burst: 1_000,
    gracefulShutdownTimeoutMs: 30_000,
  });
  const ringOptions = {
    ring,
    resources: options.resources ?? ['v1/configmaps'],
    leaseNamespace: namespace,
    ...TEST_RING_TIMING,
  };
  const shard = new Shard({ ...ringOptions, manager, name, drainTimeoutMs: 15_000, logger });
  shard.controller({
    name: `configmaps-${name}`,
    resource: ringOptions.resources[0] as string,
    maxConcurrentReconciles: 4,
    reconcile: async (key) => {
      const start = performance.now();
      await sleep(realClock, options.reconcileMs ?? 2, new AbortController().signal);
      log.push({ key, shard: name, start, end: performance.now() });
    },
  });
  const sharder = new Sharder({ ...ringOptions, manager, namespace, identity: name, logger });
  manager.add(shard).add(sharder);
  const stop = new AbortController();
  const running = manager.start(stop.signal);
  running.catch(() => {});
  return { name, manager, shard, sharder, stop, running };
}

/** Pairs of reconciles of one key by two shards whose times overlap (should be none). */
export function overlappingReconciles(
  log: readonly ReconcileEntry[],
): Array<[ReconcileEntry, ReconcileEntry]> {
  const byKey = new Map<string, ReconcileEntry[]>();
  for (const entry of log) {
    const entries = byKey.get(entry.key) ?? [];
    entries.push(entry);
    byKey.set(entry.key, entries);
  }
  const overlaps: Array<[ReconcileEntry, ReconcileEntry]> = [];
  for (const entries of byKey.values()) {
    for (let i = 0; i < entries.length; i++) {
      for (let j = i + 1; j < entries.length; j++) {
        const a = entries[i] as ReconcileEntry;
        const b = entries[j] as ReconcileEntry;
        if (a.shard !== b.shard && a.start < b.end && b.start < a.end) overlaps.push([a, b]);
      }
    }
  }
  return overlaps;
}
