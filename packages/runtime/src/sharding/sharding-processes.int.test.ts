import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig, testKubeconfigPath } from '@ctrlkit/envtest/vitest';
import type { V1ConfigMap, V1Lease } from '@kubernetes/client-node';
import { afterAll, expect, it } from 'vitest';
import { overlappingReconciles, type ReconcileEntry } from '../../test/ring-harness.js';
import { createClient } from '../client/client.js';
import { shardLabel } from './ring-labels.js';
import { sharderLeaseName } from './sharder.js';

// Three replicas as processes (test/shard-replica.mjs, on the built package), lease 3 s: one
// that is not the sharder is SIGKILLed (no release, no drain); its objects move to the others
// once its Lease has lapsed, and no object is reconciled by two replicas at once.

const OBJECTS = 300;
const LEASE_MS = 3_000;

interface Replica {
  name: string;
  child: ChildProcess;
  stderr: string[];
}

const children: Replica[] = [];
const log: ReconcileEntry[] = [];
afterAll(() => {
  for (const replica of children) replica.child.kill('SIGKILL');
});

function startReplica(namespace: string, name: string): Replica {
  const script = fileURLToPath(new URL('../../test/shard-replica.mjs', import.meta.url));
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      REPLICA_NAMESPACE: namespace,
      REPLICA_NAME: name,
      REPLICA_KUBECONFIG: testKubeconfigPath(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const replica: Replica = { name, child, stderr: [] };
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.trim() !== '')) {
      const parsed = JSON.parse(line) as Partial<ReconcileEntry>;
      if (typeof parsed.key === 'string') log.push(parsed as ReconcileEntry);
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => replica.stderr.push(chunk));
  children.push(replica);
  return replica;
}

it('a SIGKILLed replica: its objects move to the others once its Lease lapses, none reconciled twice at once', async () => {
  const kubeConfig = testKubeConfig();
  const client = createClient(kubeConfig, { qps: 500, burst: 1_000 });
  const namespace = await createTestNamespace(kubeConfig, 'sharding-kill-');
  const label = shardLabel('processes');
  for (let i = 0; i < OBJECTS; i += 25) {
    await Promise.all(
      Array.from({ length: 25 }, (_, j) =>
        client.create('configmaps', { metadata: { name: `cm-${i + j}` } }, { namespace }),
      ),
    );
  }
  for (const name of ['p-1', 'p-2', 'p-3']) startReplica(namespace, name);
  const shardsOf = async () =>
    (await client.list<V1ConfigMap>('configmaps', { namespace })).items.map(
      (cm) => cm.metadata?.labels?.[label],
    );
  const wait = async <T>(what: string, check: () => Promise<T>, until: (v: T) => boolean) =>
    waitFor(what, check, { timeoutMs: 60_000, intervalMs: 100, until }).catch((error: unknown) => {
      const output = children.map((r) => `${r.name}: ${r.stderr.join('')}`);
      throw new Error(`${errorMessage(error)}\n${output.join('\n')}`, { cause: error });
    });
  await wait(
    'every object on one of three shards',
    shardsOf,
    (shards) =>
      ['p-1', 'p-2', 'p-3'].every((s) => shards.includes(s)) &&
      shards.every((s) => s !== undefined),
  );
  const sharder = await client.get<V1Lease>(
    'coordination.k8s.io/v1/leases',
    sharderLeaseName('processes'),
    {
      namespace,
    },
  );
  // The status view, as the built bin prints it.
  const bin = fileURLToPath(new URL('../../bin/ctrlkit-shards.mjs', import.meta.url));
  const shown = spawnSync(
    process.execPath,
    [
      bin,
      '--kubeconfig',
      testKubeconfigPath(),
      '--ring',
      'processes',
      '--lease-namespace',
      namespace,
      '--namespace',
      namespace,
    ],
    { encoding: 'utf8' },
  );
  expect(shown.stderr).toBe('');
  expect(shown.stdout).toMatch(/^ring processes {3}sharder: p-\d/);
  for (const name of ['p-1', 'p-2', 'p-3'])
    expect(shown.stdout).toMatch(new RegExp(`^${name}\\s+ready\\s+\\d+`, 'm'));
  expect(shown.stdout).toMatch(/unassigned: 0 {3}labelled with an unknown shard: 0/);
  const victim = children.find((r) => r.name !== sharder.spec?.holderIdentity) as Replica;
  const owned = (await shardsOf()).filter((s) => s === victim.name).length;
  expect(owned).toBeGreaterThan(0);
  const killedAt = Date.now();
  victim.child.kill('SIGKILL');
  await wait('no object left on the killed shard', shardsOf, (shards) =>
    shards.every((s) => s !== undefined && s !== victim.name),
  );
  const movedAfterMs = Date.now() - killedAt;
  // The Lease lapses after 3 s as the sharder sees it; a busy machine adds its delay.
  expect(movedAfterMs).toBeGreaterThanOrEqual(LEASE_MS - 1_000);
  expect(movedAfterMs).toBeLessThan(LEASE_MS + 7_000);
  // Every object was reconciled by its new shard after the move.
  const current = await client.list<V1ConfigMap>('configmaps', { namespace });
  await wait(
    'the moved objects reconciled by their new shard',
    async () =>
      current.items.every((cm) => {
        const key = `${namespace}/${cm.metadata?.name}`;
        const shard = cm.metadata?.labels?.[label];
        return log.some((e) => e.key === key && e.shard === shard);
      }),
    Boolean,
  );
  expect(overlappingReconciles(log)).toEqual([]);
  console.log(
    `sharding: SIGKILLed ${victim.name} (${owned} objects, lease ${LEASE_MS} ms): all moved after ${movedAfterMs} ms`,
  );
});
