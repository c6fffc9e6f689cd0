// What a cluster does with the virtual node (one control plane with kube-scheduler and
// kube-controller-manager for this file): a Deployment of 20 pods tolerating the node's taint
// is placed on it by kube-scheduler and runs, with the mock and with the process provider;
// scaled to 0, every pod is gone from the provider. The kubelet API answers through the
// apiserver's node proxy and pods/log. The app runs as deploy/'s ServiceAccount.
import {
  type AppCluster,
  type AppProcess,
  appPackage,
  runningProcesses,
  SERVICE_ACCOUNT_AUDIT_POLICY,
  startApp,
} from '@ctrlkit/app-testing';
import { noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import {
  COMPONENTS,
  type ControlPlane,
  createTestNamespace,
  freePort,
  startControlPlane,
} from '@ctrlkit/envtest';
import { type Client, createClient } from '@ctrlkit/runtime/client';
import type { CoreV1Event, V1Deployment, V1Node, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const app = appPackage('@ctrlkit/virtual-kubelet', import.meta.url);
const REPLICAS = 20;
const WAIT = { timeoutMs: 90_000, intervalMs: 200 };

let plane: ControlPlane;
let cluster: AppCluster;
let client: Client;

beforeAll(async () => {
  plane = await startControlPlane({
    components: COMPONENTS,
    auditPolicy: SERVICE_ACCOUNT_AUDIT_POLICY,
    logger: noopLogger,
  });
  cluster = plane;
  client = createClient(plane.kubeConfig);
});
afterAll(async () => {
  client?.close();
  await plane?.stop();
});

/** A Deployment whose pods tolerate the virtual node of `provider` (and no other node's taint). */
function deployment(name: string, provider: string, marker: string): V1Deployment {
  const labels = { app: name };
  return {
    metadata: { name },
    spec: {
      replicas: REPLICAS,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          tolerations: [
            {
              key: 'virtual-kubelet.io/provider',
              operator: 'Equal',
              value: provider,
              effect: 'NoSchedule',
            },
          ],
          terminationGracePeriodSeconds: 2,
          containers: [
            {
              name: 'main',
              image: 'busybox',
              // The process provider runs this; `sleep <marker>` finds the processes in /proc.
              command: ['/bin/sh', '-c', `echo "started $POD_NAME"; exec sleep ${marker}`],
              env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
            },
          ],
        },
      },
    },
  };
}

describe.each(['mock', 'process'] as const)('the %s provider', (provider) => {
  const nodeName = `vk-${provider}`;
  // A number of seconds no other process sleeps for.
  const marker = String(86_400 + (process.pid % 10_000));
  let vk: AppProcess;
  let namespace: string;

  beforeAll(async () => {
    vk = await startApp(app, {
      cluster,
      args: [
        `--nodename=${nodeName}`,
        `--provider=${provider}`,
        `--listen-port=${await freePort()}`,
        '--metrics-addr=0',
        '--healthz-addr=0',
      ],
    });
    namespace = await createTestNamespace(plane.kubeConfig, `sched-${provider}-`);
    // The ServiceAccount admission plugin refuses pods until the namespace's `default` exists.
    await waitFor('the default ServiceAccount', () =>
      client.get('serviceaccounts', 'default', { namespace }),
    );
  });
  afterAll(async () => {
    expect(await vk?.stop()).toBe(0);
  });

  const pods = async () => (await client.list<V1Pod>('pods', { namespace })).items;
  const proxy = async (path: string) =>
    (await client.getBody(`/api/v1/nodes/${nodeName}/proxy/${path}`, {}, '*/*')).toString();
  const podLog = async (name: string) =>
    (
      await client.getBody(
        `/api/v1/namespaces/${namespace}/pods/${name}/log`,
        { container: 'main' },
        '*/*',
      )
    ).toString();
  const providerPods = async () =>
    (JSON.parse(await proxy('runningpods/')) as { items: V1Pod[] }).items.filter(
      (p) => p.metadata?.namespace === namespace,
    );

  it(`kube-scheduler places ${REPLICAS} pods on the virtual node and they run`, async () => {
    await waitFor(
      'the node Ready',
      async () =>
        (await client.get<V1Node>('nodes', nodeName)).status?.conditions?.find(
          (c) => c.type === 'Ready',
        )?.status === 'True',
      WAIT,
    );
    await client.create('apps/v1/deployments', deployment('web', provider, marker), { namespace });
    const running = await waitFor('every pod Running', pods, {
      ...WAIT,
      until: (items) =>
        items.length === REPLICAS && items.every((p) => p.status?.phase === 'Running'),
    });
    for (const pod of running) {
      expect(pod.spec?.nodeName).toBe(nodeName);
      // Bound by the scheduler (no nodeName in the template), not by us.
      expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    }
    const scheduled = await client.list<CoreV1Event>('events', {
      namespace,
      fieldSelector: 'reason=Scheduled',
    });
    expect(
      new Set(scheduled.items.map((e) => e.source?.component ?? e.reportingComponent)),
    ).toEqual(new Set(['default-scheduler']));
    expect((await providerPods()).map((p) => p.metadata?.uid).sort()).toEqual(
      running.map((p) => p.metadata?.uid).sort(),
    );
    if (provider === 'process') expect(runningProcesses('sleep', marker)).toBe(REPLICAS);
  });

  it('answers /stats/summary and /metrics/resource through the node proxy, /containerLogs through pods/log', async () => {
    const [pod] = await pods();
    const name = pod?.metadata?.name ?? '';
    const summary = JSON.parse(await proxy('stats/summary')) as {
      node: { nodeName: string };
      pods: Array<{ podRef: { name: string; namespace: string } }>;
    };
    expect(summary.node.nodeName).toBe(nodeName);
    expect(summary.pods.filter((p) => p.podRef.namespace === namespace)).toHaveLength(REPLICAS);
    expect(await proxy('metrics/resource')).toContain(
      `pod_memory_working_set_bytes{namespace="${namespace}",pod="${name}"}`,
    );
    if (provider === 'process') {
      // kubectl logs: the apiserver asks the node's kubelet port for /containerLogs.
      const log = await waitFor('the container output', () => podLog(name), {
        until: (text) => text.includes('started'),
      });
      expect(log).toBe(`started ${name}\n`);
    } else {
      await expect(podLog(name)).rejects.toMatchObject({
        statusCode: 501,
        message: expect.stringContaining('containerLogs is not supported by this provider'),
      });
    }
  });

  it('scaled to 0, every pod is gone from the API and from the provider', async () => {
    await client.patch(
      'apps/v1/deployments',
      'web',
      [{ op: 'replace', path: '/spec/replicas', value: 0 }],
      {
        namespace,
        subresource: 'scale',
        type: 'json',
      },
    );
    await waitFor('no pod left', pods, { ...WAIT, until: (items) => items.length === 0 });
    expect(await providerPods()).toEqual([]);
    if (provider === 'process') {
      await waitFor('no container process left', () => runningProcesses('sleep', marker), {
        ...WAIT,
        until: (n) => n === 0,
      });
    }
  });
});
