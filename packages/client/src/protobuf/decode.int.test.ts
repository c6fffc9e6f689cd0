// The decoder against a real apiserver: objects of the kinds a controller reads most are
// created, then read with GET, LIST and WATCH once as protobuf and once as JSON; the decoded
// protobuf must equal the parsed JSON.
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient } from '../client.js';
import { objectPath, withQuery } from '../paths.js';
import { collectionPath, toGroupVersionResource } from '../resource.js';
import { decodeProtobuf, decodeProtobufWatchEvent } from './decode.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const suffix = Math.random().toString(36).slice(2, 7);

let client: Client;
let namespace: string;

/** resource (as the client takes it), whether namespaced, the object to create. */
const objects: [string, boolean, Record<string, unknown>][] = [
  [
    'configmaps',
    true,
    {
      metadata: { name: 'cm', labels: { app: 'x' }, annotations: { note: 'héllo <&>' } },
      data: { a: '1', empty: '' },
      binaryData: { bin: 'AAECAwQ=', none: '' },
    },
  ],
  ['secrets', true, { metadata: { name: 's' }, type: 'Opaque', stringData: { password: 'p' } }],
  [
    'pods',
    true,
    {
      metadata: { name: 'p' },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx:1',
            ports: [
              { name: 'http', containerPort: 8080 },
              { containerPort: 53, protocol: 'UDP' },
            ],
            resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '0.25' } },
            livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
            readinessProbe: { tcpSocket: { port: 'http' } },
          },
        ],
        volumes: [{ name: 'e', emptyDir: { sizeLimit: '1Gi' } }],
      },
    },
  ],
  [
    'apps/v1/deployments',
    true,
    {
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { labels: { app: 'd' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
        strategy: { rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      },
    },
  ],
  [
    'nodes',
    false,
    {
      metadata: { name: `proto-node-${suffix}`, labels: { type: 'virtual-kubelet' } },
      spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] },
    },
  ],
  [
    'coordination.k8s.io/v1/leases',
    true,
    {
      metadata: { name: 'l' },
      spec: {
        holderIdentity: 'me',
        leaseDurationSeconds: 40,
        renewTime: '2026-11-26T01:02:03.123456Z',
        acquireTime: '2026-11-26T01:02:03.000001Z',
      },
    },
  ],
  [
    'events',
    true,
    {
      metadata: { name: 'e.1' },
      involvedObject: { kind: 'Pod', name: 'p', apiVersion: 'v1' },
      reason: 'Started',
      message: 'Started container',
      type: 'Normal',
      firstTimestamp: '2026-11-26T01:02:03Z',
      lastTimestamp: '2026-11-26T01:02:03Z',
      count: 1,
    },
  ],
  [
    'resource.k8s.io/v1/resourceslices',
    false,
    {
      metadata: { name: `proto-slice-${suffix}` },
      spec: {
        driver: 'gpu.example.com',
        pool: { name: 'p', generation: 1, resourceSliceCount: 1 },
        nodeName: `proto-node-${suffix}`,
        devices: [
          {
            name: 'gpu-0',
            attributes: { index: { int: 0 }, uuid: { string: 'u-0' }, healthy: { bool: true } },
            capacity: { memory: { value: '80Gi' } },
          },
        ],
      },
    },
  ],
];

beforeAll(async () => {
  const kubeConfig = testKubeConfig();
  namespace = await createTestNamespace(kubeConfig, 'protobuf-');
  client = createClient(kubeConfig, { qps: Number.POSITIVE_INFINITY });
  for (const [resource, namespaced, object] of objects) {
    if (resource === 'events') Object.assign(object.involvedObject as object, { namespace });
    await client.create(resource, object, namespaced ? { namespace } : {});
  }
});

afterAll(() => client?.close());

/** GETs `path` with `accept` and returns the body, failing on any status but 200. */
async function get(path: string, accept: string): Promise<Buffer> {
  const response = await client.request('GET', path, { headers: { Accept: accept } });
  expect(response.statusCode, response.body.toString('utf8')).toBe(200);
  return response.body;
}

/** GETs `path` as protobuf and as JSON and asserts both read the same. */
async function expectSame(path: string): Promise<unknown> {
  const proto = await get(path, PROTOBUF);
  const json = await get(path, 'application/json');
  const decoded = decodeProtobuf(proto);
  expect(decoded).toStrictEqual(JSON.parse(json.toString('utf8')));
  return decoded;
}

describe('decodeProtobuf against a real apiserver', () => {
  it.each(objects.map(([resource, namespaced, object]) => [resource, namespaced, object] as const))(
    'reads %s the same by GET and LIST as protobuf and as JSON',
    async (resource, namespaced, object) => {
      const gvr = toGroupVersionResource(resource);
      const ns = namespaced ? namespace : undefined;
      const name = (object.metadata as { name: string }).name;
      const one = (await expectSame(objectPath(gvr, ns, name))) as { metadata: { name: string } };
      expect(one.metadata.name).toBe(name);
      const list = (await expectSame(
        withQuery(collectionPath(gvr, ns), { fieldSelector: `metadata.name=${name}` }),
      )) as { items: unknown[] };
      expect(list.items).toHaveLength(1);
    },
  );

  it('reads a metadata-only list (PartialObjectMetadataList) the same', async () => {
    const path = collectionPath(toGroupVersionResource('configmaps'), namespace);
    const as = ';as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
    const proto = await get(path, `${PROTOBUF}${as}`);
    const json = await get(path, `application/json${as}`);
    const decoded = decodeProtobuf(proto) as { kind: string; items: unknown[] };
    expect(decoded.kind).toBe('PartialObjectMetadataList');
    expect(decoded.items.length).toBeGreaterThan(0);
    expect(decoded).toStrictEqual(JSON.parse(json.toString('utf8')));
  });

  it('reads an error Status the same', async () => {
    const path = objectPath(toGroupVersionResource('pods'), namespace, 'missing');
    const proto = await client.request('GET', path, { headers: { Accept: PROTOBUF } });
    const json = await client.request('GET', path, { headers: { Accept: 'application/json' } });
    expect(proto.statusCode).toBe(404);
    expect(decodeProtobuf(proto.body)).toStrictEqual(JSON.parse(json.body.toString('utf8')));
  });

  it('reads a watch stream frame by frame the same as its JSON lines', async () => {
    const gvr = toGroupVersionResource('configmaps');
    const before = (await client.list('configmaps', { namespace })) as {
      metadata: { resourceVersion: string };
    };
    await client.create('configmaps', { metadata: { name: 'w' }, data: { a: '1' } }, { namespace });
    await client.patch('configmaps', 'w', { data: { a: '2' } }, { namespace });
    await client.delete('configmaps', 'w', { namespace });
    const path = withQuery(collectionPath(gvr, namespace), {
      watch: 'true',
      resourceVersion: before.metadata.resourceVersion,
      timeoutSeconds: 1,
    });
    const proto = await get(path, `${PROTOBUF};stream=watch`);
    const json = await get(path, 'application/json;stream=watch');
    const frames: { type: string; object: unknown }[] = [];
    for (let at = 0; at < proto.length; ) {
      const length = proto.readUInt32BE(at);
      frames.push(decodeProtobufWatchEvent(proto.subarray(at + 4, at + 4 + length)));
      at += 4 + length;
    }
    const lines = json
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
    expect(frames.map((event) => event.type)).toStrictEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(frames).toStrictEqual(lines);
  });
});
