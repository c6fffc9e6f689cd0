// One control plane with kube-scheduler and kube-controller-manager for this file: what a
// cluster does with objects (scheduling, garbage collection, service accounts), and clean-up.

import { existsSync } from 'node:fs';
import { noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import {
  ApiException,
  AuthenticationV1Api,
  CoreV1Api,
  KubeConfig,
  type V1Pod,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesMentioning } from '../test/proc-scan.js';
import { COMPONENTS } from './components.js';
import { type ControlPlane, startControlPlane } from './control-plane.js';
import { createTestNamespace } from './namespace.js';
import { resolveBinaries } from './resolve-binaries.js';

/** Long enough for a loaded 2-core machine; every wait ends as soon as its condition holds. */
const WAIT = { timeoutMs: 60_000, intervalMs: 250 };

const isNotFound = (error: unknown) => error instanceof ApiException && error.code === 404;

describe('a control plane with kube-scheduler and kube-controller-manager', () => {
  let plane: ControlPlane;
  let core: CoreV1Api;
  let namespace: string;

  beforeAll(async () => {
    // Builds the components on a machine that has not yet (progress on stderr, about 6 to 10
    // minutes after kube-apiserver's build); a cache hit takes milliseconds.
    await resolveBinaries({ components: COMPONENTS });
    plane = await startControlPlane({ components: COMPONENTS, logger: noopLogger });
    core = plane.kubeConfig.makeApiClient(CoreV1Api);
    namespace = await createTestNamespace(plane.kubeConfig, 'components-');
  }, 1_800_000);
  afterAll(async () => {
    await plane?.stop();
  });

  it('reports each component healthy on its loopback port with its own kubeconfig', async () => {
    expect(plane.components.map((c) => c.name)).toEqual([
      'kube-scheduler',
      'kube-controller-manager',
    ]);
    expect(plane.timings.componentsMs).toBeGreaterThan(0);
    for (const component of plane.components) {
      expect(component.url).toBe(`https://127.0.0.1:${component.port}`);
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromFile(component.kubeconfigPath);
      expect(kubeConfig.getCurrentUser()?.name).toBe(`system:${component.name}`);
      // Its own identity, as the apiserver sees it (kubeadm's users, bound by bootstrap RBAC).
      const review = await kubeConfig
        .makeApiClient(AuthenticationV1Api)
        .createSelfSubjectReview({ body: {} });
      expect(review.status?.userInfo?.username).toBe(`system:${component.name}`);
      const ca = Buffer.from(plane.kubeConfig.getCurrentCluster()!.caData!, 'base64').toString();
      const { request } = await import('node:https');
      const status = await new Promise<number>((resolve, reject) => {
        request(`${component.url}/healthz`, { ca }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(200);
    }
  });

  it('kube-controller-manager runs its controllers as their own service accounts', async () => {
    // --use-service-account-credentials: one ServiceAccount per controller in kube-system.
    await waitFor(
      'controller service accounts in kube-system',
      async () => {
        const accounts = await core.listNamespacedServiceAccount({ namespace: 'kube-system' });
        const names = accounts.items.map((a) => a.metadata?.name);
        return ['generic-garbage-collector', 'namespace-controller', 'node-controller'].every((n) =>
          names.includes(n),
        );
      },
      { until: (found) => found, ...WAIT },
    );
  });

  it('gives a namespace its default ServiceAccount and the kube-root-ca.crt ConfigMap', async () => {
    await waitFor(
      'the default ServiceAccount',
      () => core.readNamespacedServiceAccount({ namespace, name: 'default' }),
      WAIT,
    );
    const rootCa = await waitFor(
      'kube-root-ca.crt',
      () => core.readNamespacedConfigMap({ namespace, name: 'kube-root-ca.crt' }),
      WAIT,
    );
    const ca = Buffer.from(plane.kubeConfig.getCurrentCluster()!.caData!, 'base64').toString();
    expect(rootCa?.data?.['ca.crt']).toBe(ca);
  });

  it('fills a ServiceAccount token Secret with a token the apiserver accepts', async () => {
    await core.createNamespacedSecret({
      namespace,
      body: {
        metadata: {
          name: 'default-token',
          annotations: { 'kubernetes.io/service-account.name': 'default' },
        },
        type: 'kubernetes.io/service-account-token',
      },
    });
    const secret = await waitFor(
      'the token controller to fill default-token',
      () => core.readNamespacedSecret({ namespace, name: 'default-token' }),
      { until: (s) => s.data?.token !== undefined && s.data['ca.crt'] !== undefined, ...WAIT },
    );
    expect(Buffer.from(secret.data!.namespace!, 'base64').toString()).toBe(namespace);
    // Signed by kube-controller-manager with the apiserver's service-account key.
    const asAccount = new KubeConfig();
    asAccount.loadFromClusterAndUser(plane.kubeConfig.getCurrentCluster()!, {
      name: 'default',
      token: Buffer.from(secret.data!.token!, 'base64').toString(),
    });
    const review = await asAccount
      .makeApiClient(AuthenticationV1Api)
      .createSelfSubjectReview({ body: {} });
    expect(review.status?.userInfo?.username).toBe(`system:serviceaccount:${namespace}:default`);
  });

  it('kube-scheduler binds a pod to a Ready node', async () => {
    const nodeName = 'fake-node';
    const now = new Date();
    await core.createNode({
      body: {
        metadata: { name: nodeName, labels: { 'kubernetes.io/hostname': nodeName } },
        status: {
          capacity: { cpu: '8', memory: '32Gi', pods: '110' },
          allocatable: { cpu: '8', memory: '32Gi', pods: '110' },
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            },
          ],
        },
      },
    });
    // With the ServiceAccount admission plugin on, a pod needs its namespace's default account.
    await waitFor(
      'the default ServiceAccount',
      () => core.readNamespacedServiceAccount({ namespace, name: 'default' }),
      WAIT,
    );
    await core.createNamespacedPod({
      namespace,
      body: {
        metadata: { name: 'scheduled' },
        spec: {
          containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '1' } } }],
        },
      },
    });
    const pod: V1Pod = await waitFor(
      'the pod to be bound',
      () => core.readNamespacedPod({ namespace, name: 'scheduled' }),
      { until: (p) => p.spec?.nodeName !== undefined, ...WAIT },
    );
    expect(pod.spec?.nodeName).toBe(nodeName);
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    expect(pod.spec?.serviceAccountName).toBe('default');
  });

  it("kube-controller-manager's garbage collector deletes a dependent whose owner is gone", async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'owner' } },
    });
    await core.createNamespacedConfigMap({
      namespace,
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! },
          ],
        },
      },
    });
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'bystander' } } });
    await core.deleteNamespacedConfigMap({ namespace, name: 'owner' });
    await waitFor(
      'the dependent to be collected',
      () =>
        core.readNamespacedConfigMap({ namespace, name: 'dependent' }).then(
          () => false,
          (error: unknown) => isNotFound(error),
        ),
      { until: (gone) => gone, ...WAIT },
    );
    await expect(
      core.readNamespacedConfigMap({ namespace, name: 'bystander' }),
    ).resolves.toBeDefined();
  });

  it('stop() leaves no process and no temporary folder', async () => {
    // etcd, kube-apiserver and both components name files in the folder on their command lines.
    expect(processesMentioning(plane.directory)).toHaveLength(4);
    await plane.stop();
    expect(processesMentioning(plane.directory)).toEqual([]);
    expect(existsSync(plane.directory)).toBe(false);
  });
});
