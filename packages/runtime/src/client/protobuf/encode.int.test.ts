// The encoder against a real apiserver: each object is created once from a protobuf body
// (as client-go sends it) and once from JSON; the apiserver must store the same object.
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionPath, toGroupVersionResource } from '../../informers/resource.js';
import { type Client, createClient } from '../client.js';
import { decodeProtobuf } from './decode.js';
import { encodeProtobuf } from './encode.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

let client: Client;
let namespace: string;

beforeAll(async () => {
  const kubeConfig = testKubeConfig();
  namespace = await createTestNamespace(kubeConfig, 'protobuf-write-');
  client = createClient(kubeConfig, { qps: Number.POSITIVE_INFINITY });
});

afterAll(() => client?.close());

/** resource, apiVersion, kind, the object without its name. */
const objects: [string, string, string, Record<string, unknown>][] = [
  [
    'configmaps',
    'v1',
    'ConfigMap',
    { metadata: { labels: { app: 'x' } }, data: { a: 'é' }, binaryData: { b: 'AAEC', e: '' } },
  ],
  ['secrets', 'v1', 'Secret', { type: 'Opaque', data: { p: 'cGFzcw==' }, immutable: true }],
  [
    'pods',
    'v1',
    'Pod',
    {
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx',
            ports: [{ containerPort: 8080, name: 'http' }],
            resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: 0.25 } },
            readinessProbe: { httpGet: { path: '/', port: 'http' } },
            livenessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 7 },
            securityContext: { runAsUser: 1000, allowPrivilegeEscalation: false },
          },
        ],
        terminationGracePeriodSeconds: 0,
        tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }],
      },
    },
  ],
  [
    'apps/v1/deployments',
    'apps/v1',
    'Deployment',
    {
      spec: {
        replicas: 2,
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
    'coordination.k8s.io/v1/leases',
    'coordination.k8s.io/v1',
    'Lease',
    {
      spec: {
        holderIdentity: 'me',
        leaseDurationSeconds: 40,
        renewTime: '2026-11-26T01:02:03.123456Z',
        acquireTime: '2026-11-26T01:02:03.000000Z',
      },
    },
  ],
];

/** The object as stored, without what differs between two creations. */
function comparable(object: Record<string, unknown>): Record<string, unknown> {
  const { metadata, ...rest } = object as { metadata: Record<string, unknown> };
  const { labels, annotations } = metadata;
  return { metadata: { labels, annotations }, ...rest };
}

describe('encodeProtobuf against a real apiserver', () => {
  it.each(objects)(
    'creates %s from a protobuf body as from JSON',
    async (resource, apiVersion, kind, object) => {
      const path = collectionPath(toGroupVersionResource(resource), namespace);
      const withName = (name: string) => ({
        ...object,
        metadata: { ...(object.metadata as object), name },
      });
      const proto = await client.request('POST', path, {
        headers: { 'Content-Type': PROTOBUF, Accept: PROTOBUF },
        body: Buffer.from(encodeProtobuf(withName('from-proto'), apiVersion, kind)),
      });
      expect(proto.statusCode, proto.body.toString('utf8')).toBe(201);
      const json = await client.request('POST', path, {
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ apiVersion, kind, ...withName('from-json') }),
      });
      expect(json.statusCode, json.body.toString('utf8')).toBe(201);
      const fromProto = decodeProtobuf(proto.body) as Record<string, unknown>;
      const fromJson = JSON.parse(json.body.toString('utf8'));
      expect((fromProto.metadata as { name: string }).name).toBe('from-proto');
      expect(comparable(fromProto)).toStrictEqual(comparable(fromJson));
    },
  );
});
