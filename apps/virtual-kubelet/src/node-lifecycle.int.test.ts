// Node lifecycle on a real cluster (one control plane with kube-scheduler and
// kube-controller-manager, a short --node-monitor-grace-period): the virtual kubelet killed
// with SIGKILL, the node lifecycle controller marks its node Ready Unknown and taints it
// unreachable within the grace period; restarted, the node is Ready again, the taint is gone,
// and its pods are reconciled, none lost and none created twice. With the process provider, so
// "created twice" is a count of real processes. The app runs as deploy/'s ServiceAccount.
import { readdirSync, readFileSync } from 'node:fs';
import { appPackage, SERVICE_ACCOUNT_AUDIT_POLICY, startApp } from '@ctrlkit/app-testing';
import { noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { COMPONENTS, createTestNamespace, freePort, startControlPlane } from '@ctrlkit/envtest';
import { createClient, type Wire } from '@ctrlkit/runtime/client';
import type { V1Deployment, V1Node, V1Pod } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

const app = appPackage('@ctrlkit/virtual-kubelet', import.meta.url);
const GRACE_MS = 8_000;
/** kube-controller-manager's --node-monitor-period: how often it looks at the nodes. */
const MONITOR_PERIOD_MS = 1_000;
const REPLICAS = 20;
const WAIT = { timeoutMs: 90_000, intervalMs: 200 };
const UNREACHABLE = 'node.kubernetes.io/unreachable';

const ready = (node: Wire<V1Node>) =>
  node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
const podReady = (pod: Wire<V1Pod>) =>
  pod.status?.conditions?.find((c) => c.type === 'Ready')?.status;
const uids = (pods: Wire<V1Pod>[]) => pods.map((p) => p.metadata?.uid ?? '').sort();

/** Processes of this machine running `sleep <marker>` (the pods' containers). */
function sleeperPids(marker: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return argv[0]?.endsWith('sleep') === true && argv[1] === marker;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}
const sleepers = (marker: string) => sleeperPids(marker).length;
/** A failed run must not leave its containers running. */
function killSleepers(marker: string): void {
  for (const pid of sleeperPids(marker)) process.kill(pid, 'SIGKILL');
}

// A number of seconds no other process sleeps for.
const marker = String(96_400 + (process.pid % 10_000));

it('SIGKILL: Ready Unknown and tainted unreachable within the grace period; restarted: Ready, untainted, every pod running once', async () => {
  const plane = await startControlPlane({
    components: COMPONENTS,
    nodeMonitorGracePeriodMs: GRACE_MS,
    controllerManagerFlags: { 'node-monitor-period': `${MONITOR_PERIOD_MS}ms` },
    auditPolicy: SERVICE_ACCOUNT_AUDIT_POLICY,
    logger: noopLogger,
  });
  const client = createClient(plane.kubeConfig);
  try {
    const nodeName = 'vk-lifecycle';
    const args = [
      `--nodename=${nodeName}`,
      '--provider=process',
      `--listen-port=${await freePort()}`,
      '--metrics-addr=0',
      '--healthz-addr=0',
    ];
    const readNode = () => client.get<V1Node>('nodes', nodeName);
    const namespace = await createTestNamespace(plane.kubeConfig, 'lifecycle-');
    const pods = async () => (await client.list<V1Pod>('pods', { namespace })).items;
    const providerPods = async () =>
      (
        JSON.parse(
          (
            await client.getBody(`/api/v1/nodes/${nodeName}/proxy/runningpods/`, {}, '*/*')
          ).toString(),
        ) as { items: Wire<V1Pod>[] }
      ).items.filter((p) => p.metadata?.namespace === namespace);

    const first = await startApp(app, { cluster: plane, args });
    try {
      await waitFor('the node Ready', async () => ready(await readNode()) === 'True', WAIT);
      await waitFor('the default ServiceAccount', () =>
        client.get('serviceaccounts', 'default', { namespace }),
      );
      await client.create<V1Deployment>('apps/v1/deployments', {
        metadata: { name: 'web', namespace },
        spec: {
          replicas: REPLICAS,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              tolerations: [{ key: 'virtual-kubelet.io/provider', operator: 'Exists' }],
              terminationGracePeriodSeconds: 2,
              containers: [{ name: 'main', image: 'busybox', command: ['sleep', marker] }],
            },
          },
        },
      });
      await waitFor('every pod Running', pods, {
        ...WAIT,
        until: (items) =>
          items.length === REPLICAS && items.every((p) => p.status?.phase === 'Running'),
      });
      expect(sleepers(marker)).toBe(REPLICAS);
    } finally {
      await first.kill();
    }
    const before = await pods();
    const killedAt = performance.now();
    const unreachable = await waitFor('Ready Unknown and the unreachable taint', readNode, {
      ...WAIT,
      until: (node) =>
        ready(node) === 'Unknown' && (node.spec?.taints ?? []).some((t) => t.key === UNREACHABLE),
    });
    // The last heartbeat was at most the kill; the controller looks every monitor period.
    expect(performance.now() - killedAt).toBeLessThan(GRACE_MS + 2 * MONITOR_PERIOD_MS + 2_000);
    expect(unreachable.status?.conditions?.find((c) => c.type === 'Ready')?.reason).toBe(
      'NodeStatusUnknown',
    );
    // It marks the pods not ready; their default toleration (300 s) keeps them bound.
    await waitFor('the pods marked not ready', pods, {
      ...WAIT,
      until: (items) => items.every((p) => podReady(p) === 'False'),
    });
    await first.stop();

    const second = await startApp(app, { cluster: plane, args });
    try {
      await waitFor('Ready and untainted', readNode, {
        ...WAIT,
        until: (node) =>
          ready(node) === 'True' && !(node.spec?.taints ?? []).some((t) => t.key === UNREACHABLE),
      });
      const after = await waitFor('every pod Running and Ready again', pods, {
        ...WAIT,
        until: (items) =>
          items.length === REPLICAS &&
          items.every((p) => p.status?.phase === 'Running' && podReady(p) === 'True'),
      });
      // None lost, none replaced: the same pods, each once in the provider.
      expect(uids(after)).toEqual(uids(before));
      expect(uids(await providerPods())).toEqual(uids(before));
      expect(sleepers(marker)).toBe(REPLICAS);
      // The virtual kubelet's own taint is still there; nothing else is.
      expect((await readNode()).spec?.taints?.map((t) => t.key)).toEqual([
        'virtual-kubelet.io/provider',
      ]);
      await client.delete('apps/v1/deployments', 'web', { namespace });
      await waitFor('no container process left', () => sleepers(marker), {
        ...WAIT,
        until: (n) => n === 0,
      });
    } finally {
      expect(await second.stop()).toBe(0);
    }
  } finally {
    client.close();
    await plane.stop();
    killSleepers(marker);
  }
});
