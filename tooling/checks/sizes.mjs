#!/usr/bin/env node
// node tooling/checks/sizes.mjs
//
// A file holds one concept and a function reads without a scroll bar. This check fails, naming
// file and line, on any non-test TypeScript or JavaScript source file under packages/*/src,
// apps/*/src, examples/*/src, tests/*/src or tooling/ that is over 500 lines, or that holds a
// function over 80 lines (declarations, expressions, arrow functions, methods, constructors and
// accessors, found with the TypeScript compiler API; a function's lines run from its first
// token to its last, nested functions included). Test files (*.test.*) and generated files
// (*.generated.ts) are excepted.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Most lines a source file may have. */
export const MAX_FILE_LINES = 500;
/** Most lines a function may have. */
export const MAX_FUNCTION_LINES = 80;

const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
const EXCEPTED = /\.test\.[cm]?[jt]sx?$|\.generated\.ts$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage']);
/** Workspace folders whose members' `src/` is checked; `tooling/` is checked whole. */
const MEMBER_FOLDERS = ['packages', 'apps', 'examples', 'tests'];

function* walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    if (SKIPPED_DIRS.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (SOURCE.test(name) && !EXCEPTED.test(name)) yield path;
  }
}

function isDir(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The folders under `root` this check reads. */
function checkedDirs(root) {
  const dirs = [];
  for (const folder of MEMBER_FOLDERS) {
    const parent = join(root, folder);
    if (!isDir(parent)) continue;
    for (const member of readdirSync(parent).sort()) {
      const src = join(parent, member, 'src');
      if (isDir(src)) dirs.push(src);
    }
  }
  if (isDir(join(root, 'tooling'))) dirs.push(join(root, 'tooling'));
  return dirs;
}

function scriptKind(path) {
  if (/\.tsx$/.test(path)) return ts.ScriptKind.TSX;
  if (/\.[cm]?ts$/.test(path)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(path)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

function lineCount(text) {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

function nameText(name) {
  if (!name) return undefined;
  return ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)
    ? name.text
    : name.getText();
}

/** A readable name for a function node: `Class.method`, `name`, or what it is assigned to. */
function functionName(node) {
  const own = ts.isConstructorDeclaration(node) ? 'constructor' : nameText(node.name);
  const parent = node.parent;
  if (ts.isClassLike(parent)) return `${nameText(parent.name) ?? '<class>'}.${own}`;
  if (own) return own;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return nameText(parent.name) ?? '<anonymous>';
  }
  if (ts.isPropertyDeclaration(parent) && ts.isClassLike(parent.parent)) {
    return `${nameText(parent.parent.name) ?? '<class>'}.${nameText(parent.name)}`;
  }
  return '<anonymous>';
}

function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The problems in one file's text, each `{ line, message }`. */
export function checkSource(fileName, text) {
  const problems = [];
  const lines = lineCount(text);
  if (lines > MAX_FILE_LINES) {
    problems.push({ line: 1, message: `file has ${lines} lines (limit ${MAX_FILE_LINES})` });
  }
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    scriptKind(fileName),
  );
  const visit = (node) => {
    if (isFunctionLike(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = last - first + 1;
      if (length > MAX_FUNCTION_LINES) {
        problems.push({
          line: first + 1,
          message: `function ${functionName(node)} has ${length} lines (limit ${MAX_FUNCTION_LINES})`,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

/** Every problem under `root`, each `{ file, line, message }` with `file` relative to `root`. */
export function checkSizes(root) {
  const problems = [];
  for (const dir of checkedDirs(root)) {
    for (const path of walk(dir)) {
      const file = relative(root, path).split(sep).join('/');
      for (const problem of checkSource(path, readFileSync(path, 'utf8'))) {
        problems.push({ file, ...problem });
      }
    }
  }
  return problems;
}

/** Checks `root` (the repository by default), prints each problem as `file:line: message`. */
export function main(root = fileURLToPath(new URL('../..', import.meta.url))) {
  const problems = checkSizes(root);
  for (const { file, line, message } of problems) console.error(`${file}:${line}: ${message}`);
  if (problems.length > 0) {
    console.error(`sizes: ${problems.length} problem(s)`);
    return 1;
  }
  console.log('sizes: every file and function is within its limit');
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv[2]);
}
