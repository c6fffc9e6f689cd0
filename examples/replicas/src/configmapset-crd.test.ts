import { fileURLToPath } from 'node:url';
import { checkManifests } from '@ctrlkit/runtime/crd';
import { expect, it } from 'vitest';
import {
  type ConfigMapSet,
  configMapSetCrd,
  crdManifestPath,
  regenerateCrdsCommand,
} from './configmapset-crd.js';

it('the committed crds/configmapset.yaml is what the TypeBox schema generates', async () => {
  // Fails with "… regenerate it with: pnpm --filter @ctrlkit/example-replicas generate:crds".
  const file = fileURLToPath(new URL(`../${crdManifestPath}`, import.meta.url));
  await checkManifests(file, [configMapSetCrd], { regenerateCommand: regenerateCrdsCommand });
});

it('types a ConfigMapSet from the same schema', () => {
  const set: ConfigMapSet['spec'] = { replicas: 3 };
  // @ts-expect-error: replicas is a number
  const wrong: ConfigMapSet['spec'] = { replicas: '3' };
  expect([set.replicas, wrong.replicas]).toEqual([3, '3']);
  expect(configMapSetCrd.spec.versions[0]?.schema?.openAPIV3Schema?.required).toEqual(['spec']);
});
