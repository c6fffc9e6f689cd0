// A TypeDoc plugin: each entry point's module is named by its import specifier
// (`@ctrlkit/runtime/client`) instead of its path (`packages/runtime/src/client`).
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Converter, ReflectionKind } from 'typedoc';

/** The specifier a source entry file is imported by, from its package's `exports`. */
function specifierOf(file) {
  const src = dirname(file);
  const pkgDir = dirname(src);
  const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const base = relative(src, file).replace(/\.ts$/, '');
  return base === 'index' ? manifest.name : `${manifest.name}/${base}`;
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const file = module.sources?.[0]?.fullFileName;
      if (file) module.name = specifierOf(file);
    }
  });
}
