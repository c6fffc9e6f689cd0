import { InvalidArgumentError } from '@ctrlkit/core';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { PlanFixture } from './plan-fixture.js';

const fieldOf = (make: () => unknown) => {
  try {
    make();
  } catch (error) {
    return InvalidArgumentError.isInstance(error) ? error.field : 'not InvalidArgument';
  }
  return 'no error';
};

describe('PlanFixture options', () => {
  it('rejects a missing client or an empty namespace, naming the field', () => {
    expect(fieldOf(() => new PlanFixture({ namespace: 'ns' } as never))).toBe('client');
    expect(fieldOf(() => new PlanFixture({ client: {} as never, namespace: 'ns' }))).toBe('client');
    expect(fieldOf(() => new PlanFixture({ client: new KubeConfig(), namespace: '' }))).toBe(
      'namespace',
    );
  });

  it('gives client-node coordinates of each kind in its namespace', () => {
    const fixture = new PlanFixture({ client: new KubeConfig(), namespace: 'ns' });
    expect(fixture.namespace).toBe('ns');
    expect(fixture.path('StorageMap')).toEqual({
      group: 'forklift.ctrlkit.dev',
      version: 'v1beta1',
      plural: 'storagemaps',
      namespace: 'ns',
    });
  });
});
