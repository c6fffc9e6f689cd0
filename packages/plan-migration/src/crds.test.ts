import { fileURLToPath } from 'node:url';
import { checkManifests } from '@ctrlkit/runtime/crd';
import { describe, expect, it } from 'vitest';
import {
  API_GROUPS,
  apiGroupOption,
  CRD_MANIFEST_PATH,
  CRD_MANIFEST_PATHS,
  FORKLIFT_GROUP,
  forkliftCrds,
  forkliftCrdsOf,
  GROUP,
  REGENERATE_CRDS_COMMAND,
} from './crds.js';

describe('CRDs', () => {
  it('the committed crds/forklift.ctrlkit.dev.yaml is what the TypeBox schemas generate', async () => {
    const file = fileURLToPath(new URL(`../${CRD_MANIFEST_PATH}`, import.meta.url));
    await checkManifests(file, [...forkliftCrds], { regenerateCommand: REGENERATE_CRDS_COMMAND });
  });

  it("the committed crds/forklift.konveyor.io.yaml is the same CRDs in Forklift's group", async () => {
    expect(CRD_MANIFEST_PATHS[GROUP]).toBe(CRD_MANIFEST_PATH);
    for (const group of API_GROUPS) {
      const file = fileURLToPath(new URL(`../${CRD_MANIFEST_PATHS[group]}`, import.meta.url));
      await checkManifests(file, forkliftCrdsOf(group), {
        regenerateCommand: REGENERATE_CRDS_COMMAND,
      });
    }
    const konveyor = forkliftCrdsOf(FORKLIFT_GROUP);
    expect(konveyor.map((c) => c.metadata?.name)).toEqual([
      'providers.forklift.konveyor.io',
      'networkmaps.forklift.konveyor.io',
      'storagemaps.forklift.konveyor.io',
      'hooks.forklift.konveyor.io',
      'plans.forklift.konveyor.io',
      'migrations.forklift.konveyor.io',
    ]);
    // the same schemas and columns: only the group differs
    const strip = (crds: typeof konveyor) =>
      JSON.parse(JSON.stringify(crds).replaceAll(FORKLIFT_GROUP, GROUP));
    expect(strip(konveyor)).toEqual(JSON.parse(JSON.stringify(forkliftCrds)));
  });

  it('apiGroupOption takes either group, defaults to ours, and rejects others naming the field', () => {
    expect(apiGroupOption('apiGroup', undefined)).toBe('forklift.ctrlkit.dev');
    expect(apiGroupOption('apiGroup', 'forklift.konveyor.io')).toBe('forklift.konveyor.io');
    expect(() => apiGroupOption('apiGroup', 'example.com')).toThrow(
      expect.objectContaining({ field: 'apiGroup' }),
    );
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
