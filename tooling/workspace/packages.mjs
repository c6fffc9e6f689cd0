// The workspace's published packages and their code entry points, as read from each manifest.
// The one list the release tooling walks: API reports, the TypeDoc site and the registry round trip.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (absolute, with a trailing slash). */
export const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Each non-private package and app, in folder order: its absolute folder, its folder from the
 * root (`packages/runtime`) and its manifest.
 */
export function publishable() {
  const found = [];
  for (const parent of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, parent)).sort()) {
      let manifest;
      try {
        manifest = JSON.parse(readFileSync(join(root, parent, name, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (!manifest.private) {
        found.push({ dir: join(root, parent, name), relDir: join(parent, name), manifest });
      }
    }
  }
  return found;
}

/**
 * Each code subpath of a package's `exports` (those with `types`): its key (`.`, `./testing`),
 * the specifier a user imports, the API report's name, its source file (from the package
 * folder) and its built declaration file.
 */
export function codeEntryPoints(manifest) {
  return Object.entries(manifest.exports ?? {})
    .filter(([, target]) => typeof target === 'object' && target?.types)
    .map(([key, target]) => {
      const name = key === '.' ? 'index' : key.slice(2);
      return {
        key,
        specifier: key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`,
        report: name.replaceAll('/', '-'),
        source: join('src', `${name}.ts`),
        types: target.types,
      };
    });
}
