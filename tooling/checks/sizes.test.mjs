import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSizes } from './sizes.mjs';

const script = fileURLToPath(new URL('./sizes.mjs', import.meta.url));
const roots = [];

/** A fixture tree: `files` maps a path under the root to its text. */
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'sizes-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** `count` lines of statements, each ending in a newline. */
function statements(count, indent = '') {
  return Array.from({ length: count }, (_, i) => `${indent}const v${i} = ${i};\n`).join('');
}

/** A function declaration spanning exactly `lines` lines. */
function fn(name, lines) {
  return `export function ${name}() {\n${statements(lines - 2, '  ')}}\n`;
}

/** A class whose method spans exactly `lines` lines. */
function method(className, name, lines) {
  return `export class ${className} {\n  ${name}() {\n${statements(lines - 2, '    ')}  }\n}\n`;
}

/** Runs the check as a program on `root`: its exit code and what it printed. */
function run(root) {
  try {
    const stdout = execFileSync(process.execPath, [script, root], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { code: 0, output: stdout };
  } catch (error) {
    return { code: error.status, output: `${error.stdout}${error.stderr}` };
  }
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('sizes check', () => {
  it('fails on a 501-line file and an 81-line function, naming file and line', () => {
    const root = tree({
      'packages/big/src/long-file.ts': statements(501),
      'apps/app/src/long-function.ts': `// one line before\n${fn('tooLong', 81)}`,
      'tooling/thing/long-arrow.mjs': `export const arrow = () => {\n${statements(79, '  ')}};\n`,
      'examples/ex/src/long-method.ts': method('Owner', 'tooLong', 81),
    });
    expect(checkSizes(root)).toEqual([
      {
        file: 'packages/big/src/long-file.ts',
        line: 1,
        message: 'file has 501 lines (limit 500)',
      },
      {
        file: 'apps/app/src/long-function.ts',
        line: 2,
        message: 'function tooLong has 81 lines (limit 80)',
      },
      {
        file: 'examples/ex/src/long-method.ts',
        line: 2,
        message: 'function Owner.tooLong has 81 lines (limit 80)',
      },
      {
        file: 'tooling/thing/long-arrow.mjs',
        line: 1,
        message: 'function arrow has 81 lines (limit 80)',
      },
    ]);
    const { code, output } = run(root);
    expect(code).toBe(1);
    expect(output).toContain('packages/big/src/long-file.ts:1: file has 501 lines');
    expect(output).toContain('apps/app/src/long-function.ts:2: function tooLong has 81 lines');
  });

  it('finds getters, setters and constructors', () => {
    const body = statements(79, '    ');
    const root = tree({
      'packages/p/src/accessors.ts': `export class A {\n  constructor() {\n${body}  }\n  get g() {\n${body}    return 1;\n  }\n  set s(v: number) {\n${body}  }\n}\n`,
    });
    expect(checkSizes(root).map((p) => p.message)).toEqual([
      'function A.constructor has 81 lines (limit 80)',
      'function A.g has 82 lines (limit 80)',
      'function A.s has 81 lines (limit 80)',
    ]);
  });

  it('passes a clean tree: a 500-line file, an 80-line function, tests and generated files', () => {
    const root = tree({
      'packages/p/src/at-limit.ts': statements(500),
      'packages/p/src/short.ts': fn('atLimit', 80),
      'packages/p/src/big.test.ts': statements(900),
      'packages/p/src/big.int.test.ts': fn('longTest', 200),
      'packages/p/src/schema.generated.ts': statements(900),
      'packages/p/test/helper.ts': statements(900),
      'packages/p/src/node_modules/dep/index.js': statements(900),
      'tooling/t/dist/bundle.js': statements(900),
    });
    expect(checkSizes(root)).toEqual([]);
    const { code, output } = run(root);
    expect(code).toBe(0);
    expect(output).toContain('sizes: every file and function is within its limit');
  });
});
