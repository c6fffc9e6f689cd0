// Writes crds/configmapset.yaml from the TypeBox schema in src/configmapset-crd.ts (built to dist/).
import { fileURLToPath } from 'node:url';
import { configMapSetCrd, crdManifestPath, regenerateCrdsCommand } from '@ctrlkit/example-replicas';
import { writeManifests } from '@ctrlkit/runtime/crd';

const file = fileURLToPath(new URL(`../${crdManifestPath}`, import.meta.url));
await writeManifests(file, [configMapSetCrd], { regenerateCommand: regenerateCrdsCommand });
console.log(`wrote ${file}`);
