// Writes crds/forklift.ctrlkit.dev.yaml from the TypeBox schemas (built to dist/).
import { fileURLToPath } from 'node:url';
import { CRD_MANIFEST_PATH, forkliftCrds, REGENERATE_CRDS_COMMAND } from '@ctrlkit/plan-migration';
import { writeManifests } from '@ctrlkit/runtime/crd';

const file = fileURLToPath(new URL(`../${CRD_MANIFEST_PATH}`, import.meta.url));
await writeManifests(file, [...forkliftCrds], { regenerateCommand: REGENERATE_CRDS_COMMAND });
console.log(`wrote ${file}`);
