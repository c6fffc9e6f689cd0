//! Test helper (not exported): runs one upstream scenario against a real apiserver.

import { FakeClock, waitFor } from '@ctrlkit/core/testing';
import { toClient, type Wire } from '@ctrlkit/runtime/client';
import type { KubeConfig, V1Device, V1Node, V1ResourceSlice } from '@kubernetes/client-node';
import { expect } from 'vitest';
import { startController } from '../src/controller.js';
import type { Stats } from '../src/controller-stats.js';
import type { DriverResources, Owner } from '../src/driver-resources.js';
import { newKubeClient } from '../src/kube-client.js';
import { countingClient, trackingQueue } from './test-harness.js';

let counter = 0;
const run = Math.random().toString(36).slice(2, 6);

export const NODE_UID = 'node-uid';
/**
 * The UID of the 'app' owner. Upstream's row has none, but the real apiserver rejects an
 * owner reference without a UID (422), so the row gives one.
 */
export const APP_UID = 'app-uid';
export const timeAdded = new Date(Math.round(Date.now() / 1000) * 1000);
export const iso = (d: Date) => d.toISOString().replace(/\.000Z$/, 'Z');

export interface Env {
  driver: string;
  owner: string;
  pool: string;
}

export interface Scenario {
  /** 'node' (uid node-uid), 'node-lookup' (uid looked up), 'app' (apps/v1 Something, uid app-uid), 'none'. */
  owner?: 'node' | 'node-lookup' | 'app' | 'none';
  syncDelayMs?: number;
  initial?: (
    env: Env,
  ) => Array<{ name: string; spec: Partial<NonNullable<V1ResourceSlice['spec']>> }>;
  resources: (env: Env) => DriverResources;
  stats: Partial<Stats>;
  errors?: (env: Env) => string[];
  check: (slices: V1ResourceSlice[], env: Env) => void;
  /** Skip the second pass (for rows whose errors are retried). */
  once?: boolean;
}

export const device = (name: string, extra: Partial<V1Device> = {}): V1Device => ({
  name,
  ...extra,
});
/** Upstream's key is `new-attribute`, which the real apiserver rejects (the id must be a C identifier). */
export const attrs = { newAttribute: { string: 'value' } };
export const nodeSelector = {
  nodeSelectorTerms: [
    { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] },
  ],
};
export const otherNodeSelector = {
  nodeSelectorTerms: [
    { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-b'] }] },
  ],
};

function ownerOf(kind: Scenario['owner'], env: Env): Owner | undefined {
  switch (kind ?? 'node') {
    case 'node':
      return { apiVersion: 'v1', kind: 'Node', name: env.owner, uid: NODE_UID };
    case 'node-lookup':
      return { apiVersion: 'v1', kind: 'Node', name: env.owner };
    case 'app':
      return { apiVersion: 'apps/v1', kind: 'Something', name: env.owner, uid: APP_UID };
    default:
      return undefined;
  }
}

export async function listSlices(
  kubeConfig: KubeConfig,
  driver: string,
  resourceVersion?: string,
): Promise<V1ResourceSlice[]> {
  const list = await toClient(kubeConfig).list<V1ResourceSlice>(
    'resource.k8s.io/v1/resourceslices',
    { fieldSelector: `spec.driver=${driver}`, resourceVersion },
  );
  // Sorted by name; typed as the scenarios write them (JSON names, as client-node's models do not).
  return (list.items as unknown as V1ResourceSlice[]).sort((a, b) =>
    (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1,
  );
}

/** Runs `scenario` on the apiserver of `kubeConfig`: first pass, checks, then a second pass that must call nothing. */
export async function runScenario(kubeConfig: KubeConfig, scenario: Scenario): Promise<void> {
  counter++;
  const env: Env = {
    driver: `driver-${run}-${counter}`,
    owner: `owner-${run}-${counter}`,
    pool: 'pool',
  };
  const ownerKind = scenario.owner ?? 'node';
  const owner = ownerOf(ownerKind, env);
  const nodeOwner = ownerKind === 'node' || ownerKind === 'node-lookup';
  let nodeUid = NODE_UID;
  if (ownerKind === 'node-lookup') {
    const node = await toClient(kubeConfig).create<V1Node>('nodes', {
      metadata: { name: env.owner },
    });
    nodeUid = node.metadata?.uid ?? '';
  }
  const raw = newKubeClient(kubeConfig);
  for (const { name, spec } of scenario.initial?.(env) ?? []) {
    await raw.createResourceSlice({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: {
        name: `${env.driver}-${name}`,
        ...(owner
          ? {
              ownerReferences: [
                {
                  apiVersion: owner.apiVersion,
                  kind: owner.kind,
                  name: owner.name,
                  uid: ownerKind === 'app' ? APP_UID : nodeUid,
                  controller: true,
                },
              ],
            }
          : {}),
      },
      spec: {
        driver: env.driver,
        pool: { name: env.pool, generation: 1, resourceSliceCount: 1 },
        ...(nodeOwner ? { nodeName: env.owner } : spec.nodeSelector ? {} : { allNodes: true }),
        ...spec,
      } as NonNullable<Wire<V1ResourceSlice>['spec']>, // the scenarios write JSON names (`int`)
    });
  }
  // The informer's first list is served from the apiserver's watch cache (resourceVersion
  // "0", as client-go's reflector), which may not hold a slice created a moment ago: the
  // controller would then create it again. The scenario's initial state is what the controller
  // can see, so wait until that list has it (a run once saw the cache a create behind).
  const initial = scenario.initial?.(env).length ?? 0;
  if (initial > 0) {
    await waitFor(
      'the initial slices in the watch cache',
      async () => (await listSlices(kubeConfig, env.driver, '0')).length === initial,
      { timeoutMs: 20_000 },
    );
  }
  const clock = new FakeClock();
  const queue = trackingQueue(clock);
  const client = countingClient(raw);
  const errors: string[] = [];
  const controller = await startController({
    driverName: env.driver,
    kubeClient: client,
    owner,
    resources: scenario.resources(env),
    queue,
    syncDelayMs: scenario.syncDelayMs,
    clock,
    errorHandler: (error, message) => errors.push(`${message}: ${error.message}`),
  });
  try {
    const want: Stats = { numCreates: 0, numUpdates: 0, numDeletes: 0, ...scenario.stats };
    await waitFor('first pass', () => queue.idle() && queue.processed > 0, { timeoutMs: 20_000 });
    if (scenario.syncDelayMs === 0) {
      // Informer events of the pass are synced at once; wait until they have been.
      await waitFor(
        'the slices gone or an idle queue',
        async () => (await listSlices(kubeConfig, env.driver)).length === 0 || queue.idle(),
        { timeoutMs: 20_000 },
      );
      await waitFor('an idle queue', () => queue.idle(), { timeoutMs: 20_000 });
    }
    expect(controller.getStats()).toEqual(want);
    expect(errors).toEqual(scenario.errors?.(env) ?? []);
    scenario.check(await listSlices(kubeConfig, env.driver), env);
    if (ownerKind === 'node-lookup') expect(client.calls.readNode).toBe(1);
    if (scenario.once) return;

    // Second pass: sync every pool again; no further call may be made.
    const calls = { ...client.calls };
    const processed = queue.processed;
    const pools = new Set([...Object.keys(scenario.resources(env).pools), env.pool]);
    for (const pool of pools) queue.add(pool);
    await waitFor('second pass', () => queue.idle() && queue.processed >= processed + pools.size, {
      timeoutMs: 20_000,
    });
    expect(client.calls).toEqual(calls);
    expect(controller.getStats()).toEqual(want);
  } finally {
    await controller.stop();
  }
}
