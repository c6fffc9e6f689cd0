// The TypeDoc entry points: one source file per `exports` subpath of every published package.
import { join } from 'node:path';
import { codeEntryPoints, publishable } from '../../workspace/packages.mjs';

/** `packages/<p>/src/<subpath>.ts` for each code subpath of each non-private package and app. */
export function entryPoints() {
  return publishable().flatMap(({ relDir, manifest }) =>
    codeEntryPoints(manifest).map((entry) => join(relDir, entry.source)),
  );
}

/** tsconfig `paths` from each package's specifiers to its source entry files (absolute). */
export function sourcePaths() {
  const paths = {};
  for (const { dir, manifest } of publishable()) {
    for (const entry of codeEntryPoints(manifest))
      paths[entry.specifier] = [join(dir, entry.source)];
  }
  return paths;
}
