import type { Wire } from '@ctrlkit/runtime/client';
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { diskPVCs } from './pvcs.js';

const pvc = (
  name: string,
  labels: Record<string, string>,
  annotations: Record<string, string> = {},
): Wire<V1PersistentVolumeClaim> => ({
  metadata: { name, namespace: 'test', labels, annotations },
});

describe('getPVCs filtering (upstream kubevirt tests)', () => {
  const mine = { migration: 'test', vmID: 'test' };

  it('returns the PVCs of the VM', () => {
    const found = diskPVCs(
      [pvc('test-pvc', mine, { 'forklift.konveyor.io/disk-source': 'test-disk' })],
      'test',
      'test',
    );
    expect(found.map((p) => p.metadata?.name)).toEqual(['test-pvc']);
  });

  it('excludes prime PVCs created by the volume populator', () => {
    const found = diskPVCs(
      [
        pvc(
          '9ba19d87-0d7f-43be-9ffe-d7dd3a552188-ggcw8',
          { ...mine, imageID: '9ba19d87' },
          { 'forklift.konveyor.io/disk-source': '9ba19d87' },
        ),
        pvc('prime-222bcc84-8e35-4afb-a607-39605ff0397a', mine, {
          'forklift.konveyor.io/disk-source': 'x',
        }),
      ],
      'test',
      'test',
    );
    expect(found.map((p) => p.metadata?.name)).toEqual([
      '9ba19d87-0d7f-43be-9ffe-d7dd3a552188-ggcw8',
    ]);
  });

  it('excludes PVCs without disk-source annotation', () => {
    const found = diskPVCs(
      [
        pvc('real-disk-pvc', mine, { 'forklift.konveyor.io/disk-source': 'disk-001' }),
        pvc('stray-pvc-no-annotations', mine),
      ],
      'test',
      'test',
    );
    expect(found.map((p) => p.metadata?.name)).toEqual(['real-disk-pvc']);
  });

  it('excludes PVCs of other VMs and other migrations, and orders by disk index', () => {
    const ann = (i: number) => ({
      'forklift.konveyor.io/disk-source': `d${i}`,
      'forklift.konveyor.io/disk-index': String(i),
    });
    const found = diskPVCs(
      [
        pvc('second', mine, ann(1)),
        pvc('other-vm', { ...mine, vmID: 'other' }, ann(0)),
        pvc('other-migration', { ...mine, migration: 'older' }, ann(0)),
        pvc('first', mine, ann(0)),
      ],
      'test',
      'test',
    );
    expect(found.map((p) => p.metadata?.name)).toEqual(['first', 'second']);
  });
});
