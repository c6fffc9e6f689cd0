// pnpm run docs: the API site of every package, one module per `exports` subpath, the
// `@packageDocumentation` tours as their landing pages. Warnings are errors.
import { entryPoints, sourcePaths } from './tooling/docs/typedoc/entry-points.mjs';

/** @type {Partial<import('typedoc').TypeDocOptions>} */
const config = {
  name: 'ctrlkit',
  entryPoints: entryPoints(),
  entryPointStrategy: 'resolve',
  tsconfig: 'tooling/docs/typedoc/tsconfig.json',
  // One program over the sources: `@ctrlkit/x` imports resolve to src (not dist), so a link or
  // a type from another package lands on its documented declaration.
  compilerOptions: { paths: sourcePaths() },
  out: 'docs-site',
  readme: 'tooling/docs/typedoc/README.md',
  plugin: ['./tooling/docs/typedoc/plugin.mjs'],
  excludePrivate: true,
  excludeInternal: true,
  treatWarningsAsErrors: true,
  validation: { notExported: false, invalidLink: true, rewrittenLink: true, notDocumented: false },
  sort: ['kind', 'alphabetical'],
  githubPages: false,
  // No hosted repository to link into (a clone's origin may be a local path): no source links.
  disableSources: true,
  hideGenerator: true,
};

export default config;
