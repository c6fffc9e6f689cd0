import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from '@ctrlkit/client';
import { errorMessage } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig, testKubeconfigPath } from '@ctrlkit/envtest/vitest';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, expect, it } from 'vitest';

// Two replicas of one manager (test/replica-process.mjs, on the built package) in
// separate processes, with a 3 s lease: only the leader reconciles; when its process is
// SIGKILLed (no release), the other takes over once the lease has expired.

interface Replica {
  identity: string;
  child: ChildProcess;
  lines: Array<Record<string, string | boolean>>;
  stderr: string[];
}

const replicas: Replica[] = [];
afterAll(() => {
  for (const replica of replicas) replica.child.kill('SIGKILL');
});

function startReplica(namespace: string, identity: string): Replica {
  const script = fileURLToPath(new URL('../../test/replica-process.mjs', import.meta.url));
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      REPLICA_NAMESPACE: namespace,
      REPLICA_IDENTITY: identity,
      REPLICA_KUBECONFIG: testKubeconfigPath(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const replica: Replica = { identity, child, lines: [], stderr: [] };
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.trim() !== '')) replica.lines.push(JSON.parse(line));
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => replica.stderr.push(chunk));
  replicas.push(replica);
  return replica;
}

/** Core's `waitFor` (20 s unless told), with the replicas' output in a timeout's message. */
async function waitLogged<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 20_000,
): Promise<T> {
  return await waitFor(what, check, { timeoutMs }).catch((error: unknown) => {
    const output = replicas.map(
      (r) => `${r.identity}: ${JSON.stringify(r.lines)} ${r.stderr.join('')}`,
    );
    throw new Error(`${errorMessage(error)}\n${output.join('\n')}`, { cause: error });
  });
}

const metricsOf = (replica: Replica) =>
  replica.lines.find((line) => typeof line.metrics === 'string')?.metrics as string | undefined;

async function masterStatus(replica: Replica): Promise<number> {
  const text = await (await fetch(`http://${metricsOf(replica)}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('leader_election_master_status{name="replicas"} '));
  return Number(line?.split(' ')[1]);
}

it('only the leader reconciles; the standby takes over when the leader process is killed', async () => {
  const kubeConfig = testKubeConfig();
  const core = createClient(kubeConfig);
  const namespace = await createTestNamespace(kubeConfig, 'replicas-');
  const a = startReplica(namespace, 'a');
  const b = startReplica(namespace, 'b');
  // Loading the package takes seconds on a busy machine.
  await waitLogged('both metrics endpoints', () => metricsOf(a) && metricsOf(b), 60_000);
  const leader = (await waitLogged('a leader', () =>
    [a, b].find((r) => r.lines.some((line) => line.leading === true)),
  ))!;
  const standby = leader === a ? b : a;

  await core.create('configmaps', { metadata: { name: 'first' } }, { namespace });
  const first = await waitLogged('the first reconcile', async () => {
    const cm = await core.get<V1ConfigMap>('configmaps', 'first', { namespace });
    return cm.data?.reconciledBy;
  });
  expect(first).toBe(leader.identity);
  expect(await masterStatus(leader)).toBe(1);
  expect(await masterStatus(standby)).toBe(0);
  expect(standby.lines.some((line) => 'reconciled' in line || 'leading' in line)).toBe(false);

  leader.child.kill('SIGKILL');
  const killedAt = performance.now();
  await core.create('configmaps', { metadata: { name: 'second' } }, { namespace });
  const second = await waitLogged('the takeover', async () => {
    const cm = await core.get<V1ConfigMap>('configmaps', 'second', { namespace });
    return cm.data?.reconciledBy;
  });
  const takeoverMs = performance.now() - killedAt;
  expect(second).toBe(standby.identity);
  // Not before the 3 s lease, less the standby's last poll before the kill (at most
  // 400 ms × 2.2 with jitter; no release on SIGKILL), and soon after it.
  expect(takeoverMs).toBeGreaterThan(2_000);
  expect(takeoverMs).toBeLessThan(15_000);
  expect(await masterStatus(standby)).toBe(1);

  standby.child.kill('SIGTERM');
  await waitLogged('a graceful stop', () => standby.lines.some((line) => line.stopped === true));
  expect(standby.child.exitCode ?? (await new Promise((r) => standby.child.once('exit', r)))).toBe(
    0,
  );
  core.close();
});
