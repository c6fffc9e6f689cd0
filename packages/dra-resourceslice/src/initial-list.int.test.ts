// How the controller gets its informer's initial state, counted by verb as the requests go to
// a real kube-apiserver: one streaming WATCH (sendInitialEvents=true), as Go's v0.35
// controller with client-go's WatchListClient on; a LIST only where the apiserver refuses the
// stream (here: RBAC grants `list` but not `watch`), as client-go falls back.

import { FakeClock, waitFor } from '@ctrlkit/core/testing';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { type Client, type ClientRequestInfo, createClient } from '@ctrlkit/runtime/client';
import { KubeConfig, type V1ResourceSlice } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Controller, startController } from './controller.js';
import type { DriverResources } from './driver-resources.js';

const SLICES = 'resource.k8s.io/v1/resourceslices';
const RBAC = 'rbac.authorization.k8s.io/v1';
const NO_WATCH_USER = 'dra-resourceslice-no-watch';

let admin: Client;
const running: Controller[] = [];
const clients: Client[] = [];

beforeAll(() => {
  admin = createClient(testKubeConfig());
});
afterAll(() => admin.close());
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
  for (const c of clients.splice(0)) c.close();
});

const resources: DriverResources = {
  pools: {
    'pool-a': {
      slices: [{ devices: [{ name: 'gpu-0' }, { name: 'gpu-1' }] }],
    },
  },
};

/** A client that notes every ResourceSlice request it sends: its verb and query. */
function recordingClient(kubeConfig: KubeConfig): { client: Client; requests: string[] } {
  const requests: string[] = [];
  const onRequest = (info: ClientRequestInfo) => {
    if (!info.url.includes('/resourceslices')) return;
    const stream = /[?&]sendInitialEvents=true(&|$)/.test(info.url);
    requests.push(`${info.verb}${stream ? ' sendInitialEvents' : ''}`);
  };
  const client = createClient(kubeConfig, { onRequest });
  clients.push(client);
  return { client, requests };
}

/** The test's kubeconfig, impersonating `user`. */
function impersonating(user: string): KubeConfig {
  const base = testKubeConfig();
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: base.clusters,
    contexts: base.contexts,
    currentContext: base.currentContext,
    users: base.users.map((u) => ({ ...u, impersonateUser: user })),
  });
  return kubeConfig;
}

/** Grants `user` every verb the controller uses on ResourceSlices but `watch`. */
async function grantAllButWatch(user: string): Promise<void> {
  const name = `${user}-${Math.random().toString(36).slice(2, 7)}`;
  await admin.create(`${RBAC}/clusterroles`, {
    apiVersion: RBAC,
    kind: 'ClusterRole',
    metadata: { name },
    rules: [
      {
        apiGroups: ['resource.k8s.io'],
        resources: ['resourceslices'],
        verbs: ['list', 'create', 'update', 'delete'],
      },
    ],
  });
  await admin.create(`${RBAC}/clusterrolebindings`, {
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
  });
}

async function start(driverName: string, client: Client, logs: string[] = []) {
  const log = (context: object, message?: string) =>
    logs.push(`${message ?? ''} ${JSON.stringify(context)}`);
  const controller = await startController({
    driverName,
    kubeClient: client,
    owner: { apiVersion: 'v1', kind: 'Node', name: 'node-stream', uid: 'node-stream-uid' },
    resources,
    clock: new FakeClock(),
    logger: { debug: log, info: log, warn: log, error: log },
  });
  running.push(controller);
  await waitFor('the pool published', async () => {
    const list = await admin.list<V1ResourceSlice>(SLICES, {
      fieldSelector: `spec.driver=${driverName}`,
    });
    return list.items.length === 1;
  });
  return controller;
}

describe('the initial state of the ResourceSlice informer', () => {
  it('comes from one streaming WATCH and no LIST, as Go v0.35 (WatchListClient on)', async () => {
    const { client, requests } = recordingClient(testKubeConfig());
    await start('stream.example.com', client);
    // One stream delivered the state and goes on watching; the one write publishes the pool.
    expect(requests).toEqual(['watch sendInitialEvents', 'post']);
  });

  it('falls back to a LIST where the apiserver refuses the stream (no watch permission), as client-go', async () => {
    await grantAllButWatch(NO_WATCH_USER);
    const kubeConfig = impersonating(NO_WATCH_USER);
    const probe = createClient(kubeConfig);
    clients.push(probe);
    await waitFor('the RBAC grant in force', () =>
      probe.list(SLICES, { limit: 1 }).then(
        () => true,
        () => false,
      ),
    );
    const { client, requests } = recordingClient(kubeConfig);
    const logs: string[] = [];
    await start('stream-refused.example.com', client, logs);
    // The refused stream, then the LIST that synced the informer; then the publishing write
    // and the watch from the LIST's version (refused too: it waits out its backoff on the
    // fake clock), in either order.
    expect(requests.slice(0, 2)).toEqual(['watch sendInitialEvents', 'list']);
    expect(requests.slice(2).sort()).toEqual(['post', 'watch']);
    const fallback = logs.find((l) => l.startsWith('the streaming list failed; listing instead'));
    expect(fallback).toContain('cannot watch resource \\"resourceslices\\"');
  });
});
