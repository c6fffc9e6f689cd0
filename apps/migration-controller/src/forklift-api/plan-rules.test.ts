import type { Plan, StorageMap } from '@ctrlkit/plan-migration/api';
import { describe, expect, it } from 'vitest';
import {
  luksProblem,
  STATIC_PROVISIONER,
  staticStorageProblem,
  warmMigrationProblem,
} from './plan-rules.js';

const vms = (luks?: string): Pick<Plan, 'spec'> =>
  ({
    spec: { vms: [{ id: 'a' }, { id: 'b', ...(luks !== undefined && { luks: { name: luks } }) }] },
  }) as Pick<Plan, 'spec'>;

describe('plan rules (Forklift plan admitter)', () => {
  it('warm migration is refused from OpenStack only', () => {
    expect(warmMigrationProblem(true, 'openstack')).toBe(
      'warm migration is not supported by the provider',
    );
    expect(warmMigrationProblem(false, 'openstack')).toBeUndefined();
    expect(warmMigrationProblem(true, 'vsphere')).toBeUndefined();
  });

  it('LUKS disks are refused unless the source is vSphere or OVA; an empty Secret name is no LUKS', () => {
    expect(luksProblem(vms('keys'), 'ovirt')).toBe(
      'migration of encrypted disks from source provider of type ovirt is not supported',
    );
    expect(luksProblem(vms('keys'), 'vsphere')).toBeUndefined();
    expect(luksProblem(vms('keys'), 'ova')).toBeUndefined();
    expect(luksProblem(vms(''), 'openstack')).toBeUndefined();
    expect(luksProblem(vms(), 'openstack')).toBeUndefined();
  });

  it('lists the static storage classes a map names, in map order, as Go prints a slice', () => {
    const map = {
      spec: {
        map: ['fast', 'local', 'slow', 'missing'].map((storageClass) => ({
          source: { id: storageClass },
          destination: { storageClass },
        })),
      },
    } as Pick<StorageMap, 'spec'>;
    const classes = [
      { metadata: { name: 'slow' }, provisioner: STATIC_PROVISIONER },
      { metadata: { name: 'fast' }, provisioner: 'ebs.csi.aws.com' },
      { metadata: { name: 'local' }, provisioner: STATIC_PROVISIONER },
    ];
    expect(staticStorageProblem(map, classes)).toBe('Static storage class(es) found: [local slow]');
    expect(staticStorageProblem(map, classes.slice(1, 2))).toBeUndefined();
  });
});
