import { createClient } from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { SharedInformerFactory } from '../informers/shared-informer-factory.js';
import { resolveRing, ringResourcesAnnotation } from './ring-options.js';
import { Shard } from './shard.js';
import { Sharder } from './sharder.js';

const kubeConfig = {
  getCurrentCluster: () => ({ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }),
  getCurrentUser: () => ({ name: 'u' }),
  applyToHTTPSOptions: async () => {},
} as never;
const client = createClient(kubeConfig);
const manager = { client, informerFactory: new SharedInformerFactory(client) };
const ring = { ring: 'web', resources: ['v1/configmaps'], leaseNamespace: 'default' };

function fieldOf(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    if (error instanceof InvalidArgumentError) return error.field;
    throw error;
  }
  return undefined;
}

describe('ring options', () => {
  it('normalise resources and default the Lease timing', () => {
    const resolved = resolveRing({ ...ring, resources: ['configmaps', 'example.com/v1/widgets'] });
    expect(resolved.resources).toEqual(['v1/configmaps', 'example.com/v1/widgets']);
    expect(resolved.leaseDurationMs).toBe(15_000);
    expect(ringResourcesAnnotation({ ...resolved, controlledResources: ['v1/secrets'] })).toBe(
      'example.com/v1/widgets,v1/configmaps>v1/secrets',
    );
  });

  it('name the field at fault', () => {
    expect(fieldOf(() => resolveRing({ ...ring, ring: 'Web_1' }))).toBe('ring');
    expect(fieldOf(() => resolveRing({ ...ring, resources: [] }))).toBe('resources');
    expect(fieldOf(() => resolveRing({ ...ring, resources: ['a/b/c/d'] }))).toBe('resources[0]');
    expect(fieldOf(() => resolveRing({ ...ring, leaseNamespace: '' }))).toBe('leaseNamespace');
    expect(fieldOf(() => new Shard({ ...ring, manager, name: 'Not A Name' }))).toBe('name');
    expect(fieldOf(() => new Shard({ ...ring, manager, drainTimeoutMs: -1 }))).toBe(
      'drainTimeoutMs',
    );
    expect(fieldOf(() => new Shard({ ...ring, manager: {} as never }))).toBe('manager');
    expect(fieldOf(() => new Sharder({ ...ring, manager, tokensPerShard: 0 }))).toBe(
      'tokensPerShard',
    );
    expect(fieldOf(() => new Sharder({ ...ring, manager, maxConcurrentAssignments: 0 }))).toBe(
      'maxConcurrentAssignments',
    );
  });
});

describe('Shard', () => {
  it("watches only its own objects, and only the ring's resources", () => {
    const shard = new Shard({ ...ring, manager, name: 'shard-1' });
    expect(shard.labelSelector).toBe('shard.ctrlkit.io/web=shard-1');
    expect(shard.informer('configmaps').name).toBe(
      'v1/configmaps (labels shard.ctrlkit.io/web=shard-1)',
    );
    expect(fieldOf(() => shard.informer('v1/secrets'))).toBe('resource');
    expect(shard.needLeaderElection).toBe(false);
    expect(shard.isMember()).toBe(false);
  });

  it('names a replica after its host by default, as a valid label value', () => {
    const shard = new Shard({ ...ring, manager });
    expect(shard.shardName).toMatch(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
    expect(shard.shardName.length).toBeLessThanOrEqual(63);
  });
});
