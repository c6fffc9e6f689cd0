import { InvalidArgumentError } from '@ctrlkit/core';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { createClient } from '@ctrlkit/runtime/client';
import { type RingOptions, Shard } from '@ctrlkit/runtime/sharding';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { GROUP, VERSION } from './crds.js';
import { PlanController } from './plan-controller.js';

function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

describe('PlanController options', () => {
  it('rejects missing or invalid options, naming the field', () => {
    expect(() => new PlanController({} as never)).toThrow(InvalidArgumentError);
    expect(() => new PlanController({ kubeConfig: kubeConfig() } as never)).toThrow(/sources/);
    expect(
      () =>
        new PlanController({
          kubeConfig: kubeConfig(),
          sources: () => undefined,
          pollIntervalMs: 0,
        }),
    ).toThrow(/pollIntervalMs/);
    expect(
      () =>
        new PlanController({
          kubeConfig: kubeConfig(),
          sources: () => undefined,
          settings: { maxInFlight: 0 },
        }),
    ).toThrow(/settings.maxInFlight/);
  });

  it('builds with defaults', () => {
    expect(
      new PlanController({ kubeConfig: kubeConfig(), sources: () => undefined }).reconciles,
    ).toBe(0);
  });
});

describe('PlanController shard option', () => {
  const resource = (kind: 'plans' | 'migrations') => `${GROUP}/${VERSION}/${kind}`;
  const sharded = (ring: Partial<RingOptions>) => {
    const client = createClient(kubeConfig());
    const informerFactory = new SharedInformerFactory(client, {});
    const shard = new Shard({
      ring: 'plans',
      resources: [resource('plans')],
      controlledResources: [resource('migrations')],
      leaseNamespace: 'ns',
      ...ring,
      manager: { client, informerFactory },
      name: 'shard-a',
    });
    return { client, informerFactory, shard };
  };

  it("takes a Shard whose ring shares Plans and Migrations, with the Manager's informer factory", async () => {
    const { client, informerFactory, shard } = sharded({});
    const controller = new PlanController({
      client,
      informerFactory,
      shard,
      sources: () => undefined,
    });
    // The shard runs it: run() is a mistake.
    await expect(controller.run(new AbortController().signal)).rejects.toThrow(/invalid run/);
  });

  it('rejects a shard without the informer factory, or whose ring lacks Plans or Migrations, naming the field', () => {
    const { client, informerFactory, shard } = sharded({});
    expect(() => new PlanController({ client, shard, sources: () => undefined })).toThrow(
      /invalid informerFactory/,
    );
    const noMigrations = sharded({ controlledResources: [] });
    expect(
      () =>
        new PlanController({
          client,
          informerFactory,
          shard: noMigrations.shard,
          sources: () => undefined,
        }),
    ).toThrow(/invalid shard: .*migrations is not a resource of ring plans/);
    const noPlans = sharded({ resources: [resource('migrations')], controlledResources: [] });
    expect(
      () =>
        new PlanController({
          client,
          informerFactory,
          shard: noPlans.shard,
          sources: () => undefined,
        }),
    ).toThrow(/invalid shard: .*plans is not a resource of ring plans/);
  });
});
