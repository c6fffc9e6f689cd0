import { describe, expect, it } from 'vitest';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isValidNetworkNameTemplate,
  isValidPVCNameTemplate,
  isValidTargetName,
  isValidTemplate,
  isValidVolumeNameTemplate,
  NameTemplateError,
} from './name-templates.js';

describe('name templates', () => {
  it('DNS-1123 labels and subdomains', () => {
    expect(isDNS1123Label('web-1')).toBe(true);
    expect(isDNS1123Label('Web')).toBe(false);
    expect(isDNS1123Label('a'.repeat(64))).toBe(false);
    expect(isDNS1123Subdomain('a.b-c.d')).toBe(true);
    expect(isDNS1123Subdomain('-a')).toBe(false);
  });

  it('isValidTargetName: empty is fine, a DNS-1123 subdomain is, anything else throws', () => {
    expect(() => isValidTargetName('')).not.toThrow();
    expect(() => isValidTargetName('my-vm.prod')).not.toThrow();
    expect(() => isValidTargetName('My_VM')).toThrow(NameTemplateError);
  });

  it('isValidTemplate renders fields and pipes, rejects unknown fields and empty output', () => {
    expect(
      isValidTemplate('{{.PVCName}}-{{ .VolumeIndex }}', { PVCName: 'p', VolumeIndex: 3 }),
    ).toBe('p-3');
    expect(isValidTemplate('{{ .Name | lower }}', { Name: 'ABC' })).toBe('abc');
    expect(isValidTemplate('{{upper .Name}}', { Name: 'abc' })).toBe('ABC');
    expect(() => isValidTemplate('{{.Nope}}', { Name: 'x' })).toThrow(/can't evaluate field Nope/);
    expect(() => isValidTemplate('{{.Name', { Name: 'x' })).toThrow(/unclosed/);
    try {
      isValidTemplate('{{.Empty}}', { Empty: '' });
      expect.unreachable();
    } catch (e) {
      expect(NameTemplateError.isInstance(e) && e.reason).toBe('TemplateOutputEmpty');
    }
  });

  it('name templates: volume and network must render a DNS-1123 label, PVC a subdomain', () => {
    expect(() => isValidVolumeNameTemplate('')).not.toThrow();
    expect(() => isValidVolumeNameTemplate('disk-{{.VolumeIndex}}')).not.toThrow();
    expect(() => isValidVolumeNameTemplate('{{.PVCName}}.x')).toThrow(/not a valid k8s label/);
    expect(() => isValidNetworkNameTemplate('net-{{.NetworkIndex}}')).not.toThrow();
    expect(() => isValidNetworkNameTemplate('{{.NetworkType}}')).toThrow(
      /not a valid k8s label \[Multus\]/,
    );
    expect(() => isValidPVCNameTemplate('{{.VmName}}-disk-{{.DiskIndex}}')).not.toThrow();
    expect(() => isValidPVCNameTemplate('{{.Bogus}}')).toThrow();
  });
});
