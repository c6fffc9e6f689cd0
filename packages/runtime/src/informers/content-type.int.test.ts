// Protobuf on a real apiserver: a client that prefers it (the default) hands out, for every
// built-in type, the same objects, lists, watch events and errors as a JSON client; custom
// resources and metadata-only requests stay JSON.

import {
  ApiStatusError,
  type Client,
  type ClientRequestInfo,
  CONTENT_TYPE_JSON,
  CONTENT_TYPE_PROTOBUF,
  createClient,
} from '@ctrlkit/client';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { newListWatch, type WatchEvent } from './list-watch.js';

interface Fixture {
  resource: string;
  namespaced: boolean;
  object: (namespace: string) => Record<string, unknown> & { metadata: { name: string } };
}

const now = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** Objects of several groups, with the fields whose JSON is special: times, micro-times, quantities, int-or-strings, bytes, maps, nulls. */
const fixtures: Fixture[] = [
  {
    resource: 'configmaps',
    namespaced: true,
    object: () => ({
      metadata: { name: 'settings', labels: { app: 'web' }, annotations: { note: 'héllo ✓' } },
      data: { 'a.conf': 'x = 1\n', empty: '' },
      binaryData: { blob: Buffer.from([0, 1, 2, 255]).toString('base64') },
    }),
  },
  {
    resource: 'secrets',
    namespaced: true,
    object: () => ({
      metadata: { name: 'creds' },
      type: 'Opaque',
      data: { password: Buffer.from('s3cr3t').toString('base64') },
    }),
  },
  {
    resource: 'pods',
    namespaced: true,
    object: () => ({
      metadata: { name: 'web-0', finalizers: ['example.com/keep'] },
      spec: {
        terminationGracePeriodSeconds: 0,
        containers: [
          {
            name: 'web',
            image: 'nginx:1.27',
            ports: [{ containerPort: 8080, name: 'http' }],
            resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1' } },
            livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 5 },
            readinessProbe: { tcpSocket: { port: 8080 } },
            env: [{ name: 'A', value: '' }],
          },
        ],
      },
    }),
  },
  {
    resource: 'apps/v1/deployments',
    namespaced: true,
    object: () => ({
      metadata: { name: 'web' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx' }] },
        },
      },
    }),
  },
  {
    resource: 'coordination.k8s.io/v1/leases',
    namespaced: true,
    object: () => ({
      metadata: { name: 'leader' },
      spec: {
        holderIdentity: 'me',
        leaseDurationSeconds: 15,
        acquireTime: '2026-11-26T01:02:03.123456Z',
        renewTime: '2026-11-26T01:02:04.000001Z',
        leaseTransitions: 0,
      },
    }),
  },
  {
    resource: 'events',
    namespaced: true,
    object: (namespace) => ({
      metadata: { name: 'web-0.1' },
      involvedObject: { kind: 'Pod', name: 'web-0', namespace },
      reason: 'Tested',
      message: 'protobuf and JSON agree',
      type: 'Normal',
      count: 2,
      firstTimestamp: now,
      lastTimestamp: now,
    }),
  },
  {
    resource: 'nodes',
    namespaced: false,
    object: () => ({
      metadata: { name: `protobuf-node-${process.pid}`, labels: { 'kubernetes.io/os': 'linux' } },
      spec: { taints: [{ key: 'example.com/test', effect: 'NoSchedule' }] },
    }),
  },
];

function clients(): { protobuf: Client; json: Client; accepts: ClientRequestInfo[] } {
  const kubeConfig = testKubeConfig();
  const accepts: ClientRequestInfo[] = [];
  return {
    protobuf: createClient(kubeConfig, { onRequest: (info) => accepts.push(info) }),
    json: createClient(kubeConfig, { contentType: CONTENT_TYPE_JSON }),
    accepts,
  };
}

describe('protobuf for built-in types, on a real apiserver', () => {
  it('gets, lists and writes every fixture as the JSON client does, asking for protobuf', async () => {
    const { protobuf, json, accepts } = clients();
    const namespace = await createTestNamespace(testKubeConfig(), 'protobuf-');
    for (const fixture of fixtures) {
      const options = fixture.namespaced ? { namespace } : {};
      const created = await protobuf.create(fixture.resource, fixture.object(namespace), options);
      const name = fixture.object(namespace).metadata.name;
      expect(created, `${fixture.resource}: create`).toStrictEqual(
        await json.get(fixture.resource, name, options),
      );
      expect(await protobuf.get(fixture.resource, name, options), fixture.resource).toStrictEqual(
        await json.get(fixture.resource, name, options),
      );
      // The lists' own resourceVersion is the store's latest, which other writers move.
      const { metadata: _p, ...listed } = await protobuf.list(fixture.resource, options);
      const { metadata: _j, ...listedJson } = await json.list(fixture.resource, options);
      expect(listed, `${fixture.resource}: list`).toStrictEqual(listedJson);
      const patched = await protobuf.patch(
        fixture.resource,
        name,
        { metadata: { annotations: { patched: 'yes' } } },
        options,
      );
      expect(patched, `${fixture.resource}: patch`).toStrictEqual(
        await json.get(fixture.resource, name, options),
      );
    }
    const asked = accepts.filter(
      (info) => info.url.includes(namespace) || info.url.includes('/nodes'),
    );
    expect(asked.length).toBeGreaterThan(fixtures.length * 4 - 1);
    for (const info of asked)
      expect(info.accept, info.url).toMatch(/^application\/vnd\.kubernetes\.protobuf,/);
    await protobuf.delete('nodes', `protobuf-node-${process.pid}`);
  });

  it('hands out the same watch events, from a streaming list and then live', async () => {
    const { protobuf, json } = clients();
    const namespace = await createTestNamespace(testKubeConfig(), 'protobuf-watch-');
    await json.create(
      'configmaps',
      { metadata: { name: 'before' }, data: { a: '1' } },
      { namespace },
    );
    const watch = async (client: Client) => {
      const events: WatchEvent[] = [];
      const controller = new AbortController();
      const done = newListWatch(client, 'configmaps', { namespace })
        .watch(
          {
            sendInitialEvents: true,
            resourceVersionMatch: 'NotOlderThan',
            allowWatchBookmarks: true,
            signal: controller.signal,
          },
          (event) => {
            events.push(event);
            if (event.type === 'DELETED') controller.abort();
          },
        )
        .catch((error: unknown) => {
          if (!controller.signal.aborted) throw error;
        });
      return { events, done };
    };
    const viaProtobuf = await watch(protobuf);
    const viaJson = await watch(json);
    // Changes after both have the state: else the state may already hold them.
    await waitFor('both watches at the end of the initial events', () =>
      [viaProtobuf, viaJson].every((w) => w.events.some((event) => event.type === 'BOOKMARK')),
    );
    await json.create(
      'configmaps',
      { metadata: { name: 'during' }, data: { b: '2' } },
      { namespace },
    );
    await json.patch('configmaps', 'during', { data: { b: '3' } }, { namespace });
    await json.delete('configmaps', 'during', { namespace });
    await Promise.all([viaProtobuf.done, viaJson.done]);
    const types = viaProtobuf.events.map((event) => event.type);
    expect(types).toEqual(['ADDED', 'BOOKMARK', 'ADDED', 'MODIFIED', 'DELETED']);
    expect(viaProtobuf.events).toStrictEqual(viaJson.events);
  });

  it('reads errors, empty lists, custom resources and metadata-only lists as the JSON client does', async () => {
    const { protobuf, json, accepts } = clients();
    const namespace = await createTestNamespace(testKubeConfig(), 'protobuf-edge-');
    const missing = await protobuf.get('pods', 'missing', { namespace }).catch((e: unknown) => e);
    const missingJson = await json.get('pods', 'missing', { namespace }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiStatusError);
    expect((missing as ApiStatusError).status).toStrictEqual(
      (missingJson as ApiStatusError).status,
    );
    expect((missing as ApiStatusError).status?.reason).toBe('NotFound');

    const empty = await protobuf.list('apps/v1/deployments', { namespace });
    expect(empty).toStrictEqual(await json.list('apps/v1/deployments', { namespace }));
    expect(empty.items).toEqual([]);

    await installCRDs(testKubeConfig(), [widgetCrd]);
    await protobuf.create(
      'protobuf.ctrlkit.test/v1/widgets',
      {
        apiVersion: 'protobuf.ctrlkit.test/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { size: 3 },
      },
      { namespace },
    );
    expect(
      await protobuf.get('protobuf.ctrlkit.test/v1/widgets', 'w', { namespace }),
    ).toStrictEqual(await json.get('protobuf.ctrlkit.test/v1/widgets', 'w', { namespace }));
    const widgetRequests = accepts.filter((info) => info.url.includes('/widgets'));
    expect(widgetRequests.map((info) => info.accept)).toEqual([
      CONTENT_TYPE_JSON,
      CONTENT_TYPE_JSON,
    ]);

    await json.create('configmaps', { metadata: { name: 'meta' } }, { namespace });
    const metadataOnly = await newListWatch(protobuf, 'configmaps', {
      namespace,
      metadataOnly: true,
    }).list({});
    expect(metadataOnly.items.map((item) => item.kind)).toEqual(['PartialObjectMetadata']);
    expect(CONTENT_TYPE_PROTOBUF).toBe('application/vnd.kubernetes.protobuf');
  });
});

const widgetCrd: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.protobuf.ctrlkit.test' },
  spec: {
    group: 'protobuf.ctrlkit.test',
    names: { kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true },
        },
      },
    ],
  },
};
