import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { ApiStatusError, createClient } from '@ctrlkit/client';
import {
  createCertificate,
  createTestNamespace,
  type InstalledWebhooks,
  installCRDs,
  installWebhooks,
} from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutatingWebhookFor, validatingWebhookFor } from './admission-webhook.js';
import {
  type ConvertibleObject,
  conversionWebhookFor,
  setConversionData,
  takeConversionData,
} from './conversion-webhook.js';
import {
  mutatingWebhookConfiguration,
  validatingWebhookConfiguration,
} from './webhook-configuration.js';
import { AdmissionDeniedError } from './webhook-error.js';
import { WebhookServer } from './webhook-server.js';

const GROUP = 'wh.ctrlkit.test';
const KEPT = `${GROUP}/v1-fields`;
type Widget = ConvertibleObject & {
  metadata?: {
    name?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: Record<string, unknown>;
};

function widgetCrd(): V1CustomResourceDefinition {
  const schema = (properties: Record<string, object>) => ({
    openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties } } },
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: schema({ replicas: { type: 'integer' }, paused: { type: 'boolean' } }),
        },
        {
          name: 'v1alpha1',
          served: true,
          storage: false,
          schema: schema({ count: { type: 'integer' } }),
        },
      ],
    },
  };
}

const seen: { dryRun: boolean; name: string }[] = [];
const widgets = { group: GROUP, versions: ['v1'], kind: 'Widget', resource: 'widgets' };
const validator = validatingWebhookFor<Widget>(
  {
    validateCreate: async (w, { dryRun, signal }) => {
      seen.push({ dryRun, name: String(w.metadata?.name) });
      if ((w.spec.replicas as number) < 0)
        throw new AdmissionDeniedError(`spec.replicas must be >= 0, got ${w.spec.replicas}`);
      if (w.spec.replicas === 99)
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
      return [];
    },
    validateUpdate: () => [],
    validateDelete: (w) => {
      if (w.metadata?.labels?.protected === 'true')
        throw new AdmissionDeniedError(`widget ${w.metadata.name} is protected`);
    },
  },
  { ...widgets, name: `vwidget.${GROUP}`, timeoutSeconds: 2 },
);
const defaulter = mutatingWebhookFor<Widget>(
  {
    default: (w) => {
      w.spec.paused ??= false;
      w.metadata = {
        ...w.metadata,
        labels: { ...(w.metadata?.labels as object), defaulted: 'yes' },
      };
    },
  },
  { ...widgets, name: `mwidget.${GROUP}` },
);
const conversion = conversionWebhookFor({
  group: GROUP,
  kind: 'Widget',
  hub: 'v1',
  spokes: {
    v1alpha1: {
      toHub: (spoke) => {
        const { count, ...spec } = (spoke.spec ?? {}) as Record<string, unknown>;
        const kept = (takeConversionData(spoke, KEPT) ?? {}) as Record<string, unknown>;
        return {
          ...spoke,
          spec: { ...spec, ...kept, ...(count !== undefined && { replicas: count }) },
        };
      },
      fromHub: (hub) => {
        const { replicas, paused, ...spec } = (hub.spec ?? {}) as Record<string, unknown>;
        const spoke: ConvertibleObject = {
          ...hub,
          spec: { ...spec, ...(replicas !== undefined && { count: replicas }) },
        };
        if (paused !== undefined) setConversionData(spoke, KEPT, { paused });
        return spoke;
      },
    },
  },
});
// Two webhooks on labelled ConfigMaps that differ only in failurePolicy.
const configMaps = {
  group: '',
  versions: ['v1'],
  kind: 'ConfigMap',
  resource: 'configmaps',
  operations: ['CREATE'] as const,
};
const allowAll = { validateCreate: () => [], validateUpdate: () => [], validateDelete: () => [] };
const failClosed = validatingWebhookFor(allowAll, {
  ...configMaps,
  name: `fail.${GROUP}`,
  path: '/policy-fail',
  failurePolicy: 'Fail',
  objectSelector: { matchLabels: { policy: 'fail' } },
});
const failOpen = validatingWebhookFor(allowAll, {
  ...configMaps,
  name: `ignore.${GROUP}`,
  path: '/policy-ignore',
  failurePolicy: 'Ignore',
  objectSelector: { matchLabels: { policy: 'ignore' } },
});

const kubeConfig = testKubeConfig();
const client = createClient(kubeConfig);
const v1 = `${GROUP}/v1/widgets`;
const v1alpha1 = `${GROUP}/v1alpha1/widgets`;
let namespace: string;
let installed: InstalledWebhooks;
let server: WebhookServer;
const stop = new AbortController();
let served: Promise<void>;

beforeAll(async () => {
  await installCRDs(kubeConfig, [widgetCrd()]);
  namespace = await createTestNamespace(kubeConfig, 'webhook-');
  const url = { url: 'https://replaced.by.envtest' };
  installed = await installWebhooks(kubeConfig, {
    validatingWebhookConfigurations: [
      validatingWebhookConfiguration(`widgets.${GROUP}`, [validator, failClosed, failOpen], url),
    ],
    mutatingWebhookConfigurations: [
      mutatingWebhookConfiguration(`widgets.${GROUP}`, [defaulter], url),
    ],
    conversions: [{ crdName: `widgets.${GROUP}`, path: conversion.path }],
  });
  server = new WebhookServer({
    host: installed.host,
    port: installed.port,
    certDir: installed.certDir,
    certPollIntervalMs: 500,
  });
  for (const webhook of [validator, defaulter, conversion, failClosed, failOpen])
    server.register(webhook);
  served = server.start(stop.signal);
  await installed.waitReachable();
});

afterAll(async () => {
  stop.abort();
  await served;
  await installed?.uninstall();
  client.close();
});

const widget = (
  name: string,
  spec: Record<string, unknown>,
  labels: Record<string, string> = {},
) => ({
  apiVersion: `${GROUP}/v1`,
  kind: 'Widget',
  metadata: { name, namespace, labels },
  spec,
});

async function rejection(promise: Promise<unknown>): Promise<ApiStatusError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ApiStatusError.isInstance(error))
    throw new Error(`expected an ApiStatusError, got ${String(error)}`);
  return error;
}

describe('admission webhooks on a real apiserver', () => {
  it('denies a create with the handler message', async () => {
    const error = await rejection(client.create(v1, widget('negative', { replicas: -1 })));
    expect(error.statusCode).toBe(403);
    expect(error.status?.message).toContain('spec.replicas must be >= 0, got -1');
  });

  it('applies a mutation, visible on read', async () => {
    await client.create(v1, widget('defaulted', { replicas: 1 }));
    const read = await client.get<Widget>(v1, 'defaulted', { namespace });
    expect(read.spec).toEqual({ replicas: 1, paused: false });
    expect(read.metadata?.labels).toEqual({ defaulted: 'yes' });
  });

  it('validates a delete', async () => {
    await client.create(v1, widget('protected', { replicas: 1 }, { protected: 'true' }));
    const error = await rejection(client.delete(v1, 'protected', { namespace }));
    expect(error.status?.message).toContain('widget protected is protected');
    await client.patch(
      v1,
      'protected',
      { metadata: { labels: { protected: 'false' } } },
      { namespace },
    );
    await client.delete(v1, 'protected', { namespace });
  });

  it('passes dryRun to the handler and persists nothing', async () => {
    await client.create(v1, widget('dry', { replicas: 2 }), { dryRun: true });
    expect(seen).toContainEqual({ dryRun: true, name: 'dry' });
    expect((await rejection(client.get(v1, 'dry', { namespace }))).statusCode).toBe(404);
  });

  it('answers a hanging handler within timeoutSeconds', async () => {
    const started = performance.now();
    const error = await rejection(client.create(v1, widget('hangs', { replicas: 99 })));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error.status?.message).toContain('webhook handler did not answer within 1000 ms');
  });

  it('admits 100 concurrent creates, each mutated', async () => {
    const names = Array.from({ length: 100 }, (_, i) => `many-${i}`);
    await Promise.all(names.map((name) => client.create(v1, widget(name, { replicas: 1 }))));
    const list = await client.list<Widget>(v1, { namespace, labelSelector: 'defaulted=yes' });
    expect(
      list.items.filter((w) => w.metadata?.name?.startsWith('many-')).map((w) => w.spec.paused),
    ).toEqual(names.map(() => false));
  });
});

describe('conversion webhook on a real apiserver', () => {
  it('converts both ways and round-trips what v1alpha1 cannot hold', async () => {
    await client.create(v1alpha1, {
      ...widget('old', { count: 3 }),
      apiVersion: `${GROUP}/v1alpha1`,
    });
    expect((await client.get<Widget>(v1, 'old', { namespace })).spec).toEqual({
      replicas: 3,
      paused: false,
    });

    await client.create(v1, widget('new', { replicas: 2, paused: true }));
    const old = await client.get<Widget>(v1alpha1, 'new', { namespace });
    expect(old.spec).toEqual({ count: 2 });
    expect(old.metadata?.annotations?.[KEPT]).toBe('{"paused":true}');

    // Written back through v1alpha1, the v1-only field survives.
    await client.replace(v1alpha1, { ...old, spec: { count: 5 } });
    const back = await client.get<Widget>(v1, 'new', { namespace });
    expect(back.spec).toEqual({ replicas: 5, paused: true });
    expect(back.metadata?.annotations?.[KEPT]).toBeUndefined();
  });
});

describe('certificate rotation while serving', () => {
  it('serves the new certificate to new connections and fails no request', async () => {
    const fingerprint = () =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(
          { host: installed.host, port: installed.port, rejectUnauthorized: false },
          () => {
            resolve(socket.getPeerCertificate().fingerprint256);
            socket.end();
          },
        );
        socket.on('error', reject);
      });
    const before = await fingerprint();
    let writing = true;
    let count = 0;
    const traffic = (async () => {
      while (writing) {
        await client.create(v1, widget(`rotation-${count}`, { replicas: 1 }));
        count++;
      }
    })();
    const next = await createCertificate(
      {
        usage: 'server',
        commonName: 'localhost',
        ipAddresses: [installed.host],
        dnsNames: ['localhost'],
      },
      installed.ca,
    );
    await writeFile(join(installed.certDir, 'tls.key'), next.keyPem);
    await writeFile(join(installed.certDir, 'tls.crt'), next.certPem);
    await expect.poll(fingerprint, { timeout: 10_000 }).not.toBe(before);
    const afterRotation = count;
    await expect.poll(() => count, { timeout: 10_000 }).toBeGreaterThan(afterRotation + 5);
    writing = false;
    await traffic;
    const list = await client.list<Widget>(v1, { namespace });
    expect(list.items.filter((w) => w.metadata?.name?.startsWith('rotation-'))).toHaveLength(count);
  });
});

describe('failurePolicy with the server stopped', () => {
  it('Fail refuses the request, Ignore lets it through', async () => {
    const configMap = (name: string, policy: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace, labels: { policy } },
    });
    await client.create('configmaps', configMap('served-fail', 'fail'));
    stop.abort();
    await served;
    const error = await rejection(client.create('configmaps', configMap('stopped-fail', 'fail')));
    expect(error.status?.message).toContain(`failed calling webhook "fail.${GROUP}"`);
    await client.create('configmaps', configMap('stopped-ignore', 'ignore'));
  });
});
