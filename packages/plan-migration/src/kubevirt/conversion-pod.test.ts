import { describe, expect, it } from 'vitest';
import type { Plan } from '../api/plan.js';
import type { Provider } from '../api/provider.js';
import { conversionPod, nfsShare, ovaStorePV, parseDiskTransfers } from './conversion-pod.js';

const plan = {
  metadata: { name: 'p', namespace: 'ns', uid: 'plan-uid' },
  spec: { targetNamespace: 'target' },
} as Plan;
const ova = (url: string) =>
  ({ metadata: { name: 'store', namespace: 'ns' }, spec: { type: 'ova', url } }) as Provider;

describe('conversion pod', () => {
  it('splits the OVA provider url into NFS server and path, and rejects a malformed one', () => {
    expect(nfsShare(ova('nfs.example:/exports/ova'))).toEqual({
      server: 'nfs.example',
      path: '/exports/ova',
    });
    expect(() => nfsShare(ova('nfs.example'))).toThrow(/ns\/store: spec.url must be server:\/path/);
  });

  it('labels the NFS PV as upstream', () => {
    const pv = ovaStorePV(plan, ova('10.0.0.1:/ova'), 'm1', 'vm-1');
    expect(pv.metadata?.labels).toMatchObject({ ova: 'nfs-pv', vmID: 'vm-1', migration: 'm1' });
    expect(pv.metadata?.generateName).toBe('ova-store-pv-store-p-');
    expect(pv.spec?.nfs).toEqual({ server: '10.0.0.1', path: '/ova' });
  });

  it('mounts the disks and the OVA store and carries the environment', () => {
    const pod = conversionPod({
      plan,
      migrationUID: 'm',
      vmID: 'VM-1',
      diskClaims: ['a', 'b'],
      environment: [{ name: 'V2V_source', value: 'ova' }],
      image: 'img',
      ovaStoreClaim: 'store',
    });
    expect(pod.metadata?.generateName).toBe('p-vm-1-');
    expect(pod.metadata?.labels).toMatchObject({
      'forklift.app': 'virt-v2v',
      resource: 'vm-config',
    });
    const c = pod.spec?.containers[0];
    expect(c?.env).toEqual([{ name: 'V2V_source', value: 'ova' }]);
    expect(c?.volumeMounts?.map((m) => m.mountPath)).toEqual([
      '/mnt/disks/disk0',
      '/mnt/disks/disk1',
      '/ova',
    ]);
  });

  it('reads per-disk progress from the virt-v2v metrics', () => {
    const text = 'v2v_disk_transfers{disk_id="1"} 42.5\nv2v_disk_transfers{disk_id="2"} 120\n';
    expect([...parseDiskTransfers(text)]).toEqual([
      [1, 42.5],
      [2, 100],
    ]);
  });
});
