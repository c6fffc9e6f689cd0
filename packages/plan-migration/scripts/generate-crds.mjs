// Writes crds/forklift.ctrlkit.dev.yaml and crds/forklift.konveyor.io.yaml from the TypeBox schemas (built to dist/).
import { fileURLToPath } from 'node:url';
import { forkliftCrdsOf, REGENERATE_CRDS_COMMAND } from '@ctrlkit/plan-migration';
import { API_GROUPS, CRD_MANIFEST_PATHS } from '@ctrlkit/plan-migration/api';
import { writeManifests } from '@ctrlkit/runtime/crd';

for (const group of API_GROUPS) {
  const file = fileURLToPath(new URL(`../${CRD_MANIFEST_PATHS[group]}`, import.meta.url));
  await writeManifests(file, forkliftCrdsOf(group), { regenerateCommand: REGENERATE_CRDS_COMMAND });
  console.log(`wrote ${file}`);
}
