import { type Client, createClient, toClient } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { newListWatch } from './list-watch.js';
import { SharedInformerFactory } from './shared-informer-factory.js';

function kubeConfig(): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return config;
}

describe('SharedInformerFactory cache options', () => {
  it('applies per-resource defaults over the factory defaults, and call options over both', () => {
    const factory = new SharedInformerFactory(kubeConfig(), {
      namespace: 'team',
      labelSelector: 'app=web',
      byResource: {
        'v1/secrets': { metadataOnly: true, labelSelector: '' },
        'apps/v1/deployments': { namespace: 'other', fieldSelector: 'metadata.name=web' },
      },
    });
    expect(factory.forResource('v1/configmaps').name).toBe(
      'v1/configmaps in team (labels app=web)',
    );
    expect(factory.forResource('secrets').name).toBe('v1/secrets in team (metadata only)');
    expect(factory.forResource('apps/v1/deployments').name).toBe(
      'apps/v1/deployments in other (labels app=web, fields metadata.name=web)',
    );
    expect(factory.forResource('v1/configmaps', { labelSelector: 'tier=db' }).name).toBe(
      'v1/configmaps in team (labels tier=db)',
    );
    // The same effective options give the same shared informer.
    expect(factory.forResource('v1/configmaps', { labelSelector: 'app=web' })).toBe(
      factory.forResource('v1/configmaps'),
    );
  });

  it('rejects a byResource key that is not a resource, naming it', () => {
    expect(
      () => new SharedInformerFactory(kubeConfig(), { byResource: { 'a/b/c/d': {} } }),
    ).toThrow(expect.objectContaining({ field: "byResource['a/b/c/d']" }) as InvalidArgumentError);
    expect(() => new SharedInformerFactory(kubeConfig(), { labelSelector: 1 as never })).toThrow(
      InvalidArgumentError,
    );
  });
});

// One client is one connection pool (its transport's): the same Client object means no
// second pool was made.
describe('SharedInformerFactory: one client per kubeconfig', () => {
  it("given a kubeconfig, uses that kubeconfig's one client: one pool for factories and helpers", () => {
    const config = kubeConfig();
    const first = new SharedInformerFactory(config);
    const second = new SharedInformerFactory(config, { namespace: 'team' });
    const listWatch = newListWatch(config, 'v1/pods') as unknown as { client: Client };
    expect(first.client).toBe(toClient(config));
    expect(second.client).toBe(first.client);
    expect(listWatch.client).toBe(first.client);
  });

  it('given a Client, uses it and makes no other', () => {
    const client = createClient(kubeConfig(), { disableCompression: true });
    const factory = new SharedInformerFactory(client, { disableCompression: true });
    expect(factory.client).toBe(client);
    expect((newListWatch(client, 'v1/pods') as unknown as { client: Client }).client).toBe(client);
  });

  it('refuses disableCompression with a kubeconfig instead of making a second client, naming the fix', () => {
    const config = kubeConfig();
    const shared = toClient(config);
    expect(() => new SharedInformerFactory(config, { disableCompression: true })).toThrow(
      expect.objectContaining({
        field: 'disableCompression',
        message: expect.stringContaining('createClient(kubeConfig, { disableCompression: true })'),
      }) as InvalidArgumentError,
    );
    expect(toClient(config)).toBe(shared);
    expect(new SharedInformerFactory(config, { disableCompression: false }).client).toBe(shared);
  });
});
