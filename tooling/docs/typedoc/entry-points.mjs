// The TypeDoc entry points: one source file per `exports` subpath of every published package.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Each non-private package and app: its folder (from the root) and manifest. */
function publishable() {
  const found = [];
  for (const dir of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, dir)).sort()) {
      let manifest;
      try {
        manifest = JSON.parse(readFileSync(join(root, dir, name, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (!manifest.private) found.push({ dir: join(dir, name), manifest });
    }
  }
  return found;
}

/** The code subpaths of a package's `exports`: `.` and `./testing`, … */
function subpaths(manifest) {
  return Object.entries(manifest.exports ?? {})
    .filter(([, target]) => typeof target === 'object' && target?.types)
    .map(([key]) => key);
}

/** `packages/<p>/src/<subpath>.ts` for each code subpath of each non-private package and app. */
export function entryPoints() {
  return publishable().flatMap(({ dir, manifest }) =>
    subpaths(manifest).map((key) => join(dir, 'src', `${key === '.' ? 'index' : key.slice(2)}.ts`)),
  );
}

/** tsconfig `paths` from each package's specifiers to its source entry files (absolute). */
export function sourcePaths() {
  const paths = {};
  for (const { dir, manifest } of publishable()) {
    for (const key of subpaths(manifest)) {
      const specifier = key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`;
      paths[specifier] = [join(root, dir, 'src', `${key === '.' ? 'index' : key.slice(2)}.ts`)];
    }
  }
  return paths;
}
