import { fileURLToPath } from 'node:url';
import { checkManifests } from '@ctrlkit/runtime/crd';
import { describe, expect, it } from 'vitest';
import { CRD_MANIFEST_PATH, forkliftCrds, REGENERATE_CRDS_COMMAND } from './crds.js';

describe('CRDs', () => {
  it('the committed crds/forklift.ctrlkit.dev.yaml is what the TypeBox schemas generate', async () => {
    const file = fileURLToPath(new URL(`../${CRD_MANIFEST_PATH}`, import.meta.url));
    await checkManifests(file, [...forkliftCrds], { regenerateCommand: REGENERATE_CRDS_COMMAND });
  });

  it('six kinds in forklift.ctrlkit.dev/v1beta1 with a status subresource', () => {
    expect(forkliftCrds.map((c) => c.spec.names.kind)).toEqual([
      'Provider',
      'NetworkMap',
      'StorageMap',
      'Hook',
      'Plan',
      'Migration',
    ]);
    for (const c of forkliftCrds) {
      expect(c.spec.group).toBe('forklift.ctrlkit.dev');
      expect(c.spec.versions[0]?.name).toBe('v1beta1');
      expect(c.spec.versions[0]?.subresources?.status).toEqual({});
    }
  });

  it('kubectl get plan shows Ready, Executing, Succeeded and Failed', () => {
    const plan = forkliftCrds.find((c) => c.spec.names.kind === 'Plan');
    expect(plan?.spec.versions[0]?.additionalPrinterColumns?.map((c) => c.name)).toEqual([
      'Ready',
      'Executing',
      'Succeeded',
      'Failed',
      'Age',
    ]);
    const spec = plan?.spec.versions[0]?.schema?.openAPIV3Schema?.properties?.spec;
    expect(spec?.required).toEqual(
      expect.arrayContaining(['provider', 'targetNamespace', 'map', 'vms']),
    );
    expect(spec?.properties?.targetNamespace?.pattern).toBeDefined();
    expect(spec?.properties?.type?._enum).toEqual(['cold', 'warm', 'live', 'conversion']);
  });
});
