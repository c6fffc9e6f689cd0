// The shape of every published package's entry points, read from their sources: each opens
// with a @packageDocumentation tour, none re-exports an internal/ module, a root index stays
// small, and a name has one home among a package's subpaths. And across the repository:
// every import of a ctrlkit package goes through its package.json exports (no deep imports).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const packagesDir = join(repoDir, 'packages');

/**
 * The most names (values and types) a package's root index may export: what a first
 * program needs. The default applies to every package not listed.
 */
const ROOT_LIMITS: Record<string, number> = {
  '@ctrlkit/runtime': 30,
  '@ctrlkit/plan-migration': 50,
};
const DEFAULT_ROOT_LIMIT = 60;

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, string | { types?: string; default?: string }>;
}

interface Entry {
  /** `@ctrlkit/x` or `@ctrlkit/x/sub`. */
  specifier: string;
  /** `.` or `./sub`. */
  subpath: string;
  /** The source file tsup builds it from. */
  source: string;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** Every entry point of every published package, with its source file (`dist/x.d.ts` from `src/x.ts`). */
function publishedEntries(): Entry[] {
  const entries: Entry[] = [];
  for (const dir of readdirSync(packagesDir)) {
    const manifest = readManifest(join(packagesDir, dir));
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (subpath === './package.json' || typeof target === 'string') continue;
      const types = target.types ?? '';
      const source = join(
        packagesDir,
        dir,
        types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'),
      );
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
      entries.push({ specifier, subpath, source });
    }
  }
  return entries.sort((a, b) => a.specifier.localeCompare(b.specifier));
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** The names an entry exports and the modules it re-exports from. */
function exportsOf(file: string): { names: string[]; from: string[] } {
  const names: string[] = [];
  const from: string[] = [];
  for (const statement of parse(file).statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        from.push(statement.moduleSpecifier.text);
      }
      if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) names.push(element.name.text);
      } else {
        names.push('*');
      }
    } else if (ts.isExportAssignment(statement)) {
      names.push('default');
    } else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      if (ts.isVariableStatement(statement)) {
        for (const d of statement.declarationList.declarations) names.push(d.name.getText());
      } else {
        const name = (statement as ts.DeclarationStatement).name;
        names.push(name?.getText() ?? 'default');
      }
    }
  }
  return { names, from };
}

/** The first comment of a file, before its first statement. */
function leadingComment(file: string): string {
  const text = readFileSync(file, 'utf8');
  const ranges = ts.getLeadingCommentRanges(text, text.startsWith('#!') ? text.indexOf('\n') : 0);
  const first = ranges?.[0];
  return first === undefined ? '' : text.slice(first.pos, first.end);
}

const entries = publishedEntries();
const roots = entries.filter((entry) => entry.subpath === '.');

describe('entry points', () => {
  it.each(entries.map((e) => [e.specifier, e] as const))(
    '%s opens with a @packageDocumentation tour',
    (_specifier, entry) => {
      const comment = leadingComment(entry.source);
      expect(comment.startsWith('/**'), `${entry.source} opens with a TSDoc block`).toBe(true);
      expect(comment).toContain('@packageDocumentation');
    },
  );

  it.each(entries.map((e) => [e.specifier, e] as const))(
    '%s re-exports no internal/ module and uses no export *',
    (_specifier, entry) => {
      const { names, from } = exportsOf(entry.source);
      expect(from.filter((module) => /(^|\/)internal\//.test(module))).toEqual([]);
      expect(names).not.toContain('*');
      expect(names.length).toBeGreaterThan(0);
    },
  );

  it.each(roots.map((e) => [e.specifier, e] as const))(
    '%s: the root index stays small (what a first program needs)',
    (specifier, entry) => {
      const limit = ROOT_LIMITS[specifier] ?? DEFAULT_ROOT_LIMIT;
      expect(exportsOf(entry.source).names.length).toBeLessThanOrEqual(limit);
    },
  );

  it.each(roots.map((e) => [e.specifier] as const))(
    '%s: a name has one home among the subpaths',
    (specifier) => {
      const subpaths = entries.filter(
        (e) => e.specifier.startsWith(`${specifier}/`) && e.subpath !== '.',
      );
      const homes = new Map<string, string[]>();
      for (const entry of subpaths) {
        for (const name of new Set(exportsOf(entry.source).names)) {
          homes.set(name, [...(homes.get(name) ?? []), entry.subpath]);
        }
      }
      const shared = [...homes].filter(([, where]) => where.length > 1);
      expect(Object.fromEntries(shared)).toEqual({});
    },
  );

  it("@ctrlkit/runtime's root is a selection of its subpaths (and of core)", () => {
    const root = roots.find((e) => e.specifier === '@ctrlkit/runtime');
    const core = roots.find((e) => e.specifier === '@ctrlkit/core');
    expect(root).toBeDefined();
    const elsewhere = new Set(
      entries
        .filter((e) => e.specifier.startsWith('@ctrlkit/runtime/') || e === core)
        .flatMap((e) => exportsOf(e.source).names),
    );
    const rootNames = exportsOf(root?.source ?? '').names;
    expect(rootNames.filter((name) => !elsewhere.has(name))).toEqual([]);
    expect(entries.filter((e) => e.specifier.startsWith('@ctrlkit/runtime/')).length).toBe(11);
  });
});

/** Every workspace package: its folder and exports. */
function workspacePackages(): Map<string, { dir: string; subpaths: Set<string> }> {
  const found = new Map<string, { dir: string; subpaths: Set<string> }>();
  for (const group of ['packages', 'apps', 'examples', 'tooling', 'tests']) {
    for (const dir of readdirSync(join(repoDir, group))) {
      const path = join(repoDir, group, dir);
      let manifest: Manifest;
      try {
        manifest = readManifest(path);
      } catch {
        continue;
      }
      found.set(manifest.name, {
        dir: path,
        subpaths: new Set(Object.keys(manifest.exports ?? {})),
      });
    }
  }
  return found;
}

const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  '.git',
  '.turbo',
  '.vitest',
  'coverage',
  'go',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED_DIRS.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The module specifiers a file imports or re-exports, static and dynamic. */
function importedModules(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const pattern = /(?:^|[\s;])(?:import|export)(?:[^'";]*?\sfrom)?\s*\(?\s*['"]([^'"]+)['"]/g;
  return [...text.matchAll(pattern)].map((match) => match[1] ?? '');
}

describe('imports across the repository', () => {
  it('reach a ctrlkit package only through its exports, never its src/ or dist/', () => {
    const packages = workspacePackages();
    const deep: string[] = [];
    for (const [, { dir }] of packages) {
      for (const file of sourceFiles(dir)) {
        for (const module of importedModules(file)) {
          const where = `${relative(repoDir, file)}: ${module}`;
          const scoped = /^(@ctrlkit\/[^/]+)(\/.+)?$/.exec(module);
          if (scoped) {
            const target = packages.get(scoped[1] ?? '');
            const subpath = scoped[2] === undefined ? '.' : `.${scoped[2]}`;
            if (target !== undefined && !target.subpaths.has(subpath)) deep.push(where);
          } else if (module.startsWith('.')) {
            const resolved = resolve(dirname(file), module);
            if (!resolved.startsWith(dir + sep) || resolved.includes(`${sep}dist${sep}`)) {
              deep.push(where);
            }
          }
        }
      }
    }
    expect(deep).toEqual([]);
  });
});
