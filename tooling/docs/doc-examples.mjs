#!/usr/bin/env node
// pnpm check:doc-examples
//
// The code in the documentation compiles, so it cannot rot: every ```ts block in a doc comment
// of an entry point (the `@packageDocumentation` tour's first program, an `@example`), and
// every ```ts block under an `@example` tag anywhere in a package's src, is written to a file
// beside the package (`<package>/.doc-examples/`, so its imports resolve as a user's would:
// `@ctrlkit/<name>` to the built package) and type-checked by `tsc` with the repository's
// settings. A name an example uses without defining it (`flags`, `desired`: the reader's own
// values) is declared `any` before the check; every import, call, option name and type of our
// packages is checked. Run after `pnpm build`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryPoints } from './typedoc/entry-points.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const OUT = '.doc-examples';

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The ```ts blocks of a file's doc comments; with `exampleOnly`, those after an @example tag. */
export function docBlocks(text, exampleOnly) {
  const blocks = [];
  for (const [comment] of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const lines = comment.split('\n').map((line) => line.replace(/^\s*\/?\*+\/?\s?/, ''));
    let inExample = false;
    let block;
    for (const line of lines) {
      if (block !== undefined) {
        if (line.trim() === '```') {
          blocks.push(block.join('\n'));
          block = undefined;
        } else block.push(line);
        continue;
      }
      if (/^@\w+/.test(line.trim())) inExample = line.trim().startsWith('@example');
      if (/^```(?:ts|typescript)\s*$/.test(line.trim()) && (inExample || !exampleOnly)) block = [];
    }
  }
  return blocks;
}

function tsc(config) {
  const bin = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const out = spawnSync(process.execPath, [bin, '-p', config, '--pretty', 'false'], {
    encoding: 'utf8',
  });
  return { ok: out.status === 0, output: `${out.stdout}${out.stderr}` };
}

function main() {
  const entries = new Set(entryPoints().map((file) => join(root, file)));
  const packageDirs = [...new Set([...entries].map((file) => join(file, '..', '..')))];
  const files = [];
  for (const pkgDir of packageDirs) {
    rmSync(join(pkgDir, OUT), { recursive: true, force: true });
    for (const source of sourceFiles(join(pkgDir, 'src'))) {
      const blocks = docBlocks(readFileSync(source, 'utf8'), !entries.has(source));
      blocks.forEach((block, i) => {
        mkdirSync(join(pkgDir, OUT), { recursive: true });
        const file = join(pkgDir, OUT, `${basename(source, '.ts')}-${i + 1}.ts`);
        writeFileSync(file, `// from ${relative(root, source)}\n${block}\n`);
        files.push({ file, source });
      });
    }
  }
  const config = join(root, 'tooling', 'docs', '.doc-examples.tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      extends: './../tsconfig/base.json',
      compilerOptions: { noEmit: true, noUnusedLocals: false, rootDir: root },
      files: files.map(({ file }) => file),
    }),
  );
  try {
    // First pass: the names each example leaves to the reader.
    const first = tsc(config);
    const free = new Map();
    for (const match of first.output.matchAll(
      /^(.+?)\(\d+,\d+\): error TS(?:2304|2552|18004): (?:Cannot find name|No value exists in scope for the shorthand property) '(\w+)'/gm,
    )) {
      const file = join(root, match[1]);
      free.set(file, new Set([...(free.get(file) ?? []), match[2]]));
    }
    for (const [file, names] of free) {
      const declared = [...names].map((name) => `declare const ${name}: any; type ${name} = any;`);
      writeFileSync(file, `${declared.join('\n')}\n${readFileSync(file, 'utf8')}`);
    }
    const second = first.ok ? first : tsc(config);
    if (!second.ok) {
      console.error(second.output.trim());
      console.error(
        `✘ doc examples: ${files.length} blocks, some do not compile (files under */${OUT}/, each names its source)`,
      );
      process.exit(1);
    }
    for (const pkgDir of packageDirs) rmSync(join(pkgDir, OUT), { recursive: true, force: true });
    console.log(
      `✔ doc examples: ${files.length} blocks from ${new Set(files.map((f) => f.source)).size} files compile`,
    );
  } finally {
    rmSync(config, { force: true });
  }
}

main();
