import { describe, expect, it } from 'vitest';
import { diskId, isValidUUID, networkId } from './ids.js';

describe('upstream ids', () => {
  // Expected values computed by Forklift's own code (cmd/provider-common/inventory at
  // d42511bb2, ConvertToNetworkStruct) for these names.
  it('hashes a network name as upstream does', () => {
    expect(networkId('VM Network')).toBe('ae1badc8c693926f492a01e2f357d6af321b');
    expect(networkId('NAT')).toBe('f099238943ee7e5067364728e8bb841575c8');
    expect(networkId('NAT')).toHaveLength(36);
  });

  it('hashes every field of a disk', () => {
    const disk = {
      name: 'a.vmdk',
      filePath: '/x/',
      capacity: 5n,
      capacityAllocationUnits: '',
      diskId: 'd1',
      fileRef: '',
      format: '',
      populatedSize: 0n,
    };
    const id = diskId(disk);
    expect(id).toMatch(/^[0-9a-f]{36}$/);
    expect(diskId({ ...disk, populatedSize: 1n })).not.toBe(id);
    expect(diskId({ ...disk, capacity: 300n })).not.toBe(id);
  });

  it('accepts the UUID forms google/uuid parses', () => {
    expect(isValidUUID('6f0a2d8c-1b3e-4f5a-9c7d-8e9f0a1b2c3d')).toBe(true);
    expect(isValidUUID('6F0A2D8C-1B3E-4F5A-9C7D-8E9F0A1B2C3D')).toBe(true);
    expect(isValidUUID('{6f0a2d8c-1b3e-4f5a-9c7d-8e9f0a1b2c3d}')).toBe(true);
    expect(isValidUUID('urn:uuid:6f0a2d8c-1b3e-4f5a-9c7d-8e9f0a1b2c3d')).toBe(true);
    expect(isValidUUID('6f0a2d8c1b3e4f5a9c7d8e9f0a1b2c3d')).toBe(true);
    expect(isValidUUID('web-01')).toBe(false);
    expect(isValidUUID('6f0a2d8c-1b3e-4f5a-9c7d-8e9f0a1b2c3g')).toBe(false);
    expect(isValidUUID('6f0a2d8c11b3e-4f5a-9c7d-8e9f0a1b2c3d')).toBe(false);
  });
});
