#!/usr/bin/env node
// Writes the diagrams of docs/architecture.md from the repository's own sources: the package
// graph from each package.json's dependencies, and the path of an event from the informer to
// the API write from the modules that implement each step (each step names an export that
// must exist in its file, so the picture cannot outlive the code). `--check` fails when the
// committed diagrams differ from what the sources give.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const target = join(root, 'docs', 'architecture.md');

/** The path of one change, in order: [label, package folder, source file, exported name]. */
const flow = [
  ['kube-apiserver', undefined, undefined, undefined],
  ['Client: LIST / WATCH', 'packages/client', 'src/client.ts', 'Client'],
  ['Reflector', 'packages/runtime', 'src/informers/reflector.ts', 'Reflector'],
  ['Indexer (the cache)', 'packages/runtime', 'src/informers/store.ts', 'Indexer'],
  [
    'SharedIndexInformer: event handlers',
    'packages/runtime',
    'src/informers/shared-informer.ts',
    'SharedIndexInformer',
  ],
  [
    'rate-limited work queue',
    'packages/workqueue',
    'src/rate-limiting-queue.ts',
    'newTypedRateLimitingQueue',
  ],
  ['Controller: reconcile(key)', 'packages/runtime', 'src/controller/controller.ts', 'Controller'],
  ['Client: create / patch / delete / status', 'packages/client', 'src/client.ts', 'createClient'],
];

function workspacePackages() {
  const found = [];
  for (const group of ['packages', 'apps', 'examples']) {
    const dir = join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const file = join(dir, name, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      found.push({ group, folder: `${group}/${name}`, manifest });
    }
  }
  return found;
}

function nodeId(name) {
  return name.replace(/^@ctrlkit\//, '').replace(/[^a-zA-Z0-9]/g, '_');
}

function packageGraph(packages) {
  const names = new Set(packages.map((p) => p.manifest.name));
  const lines = ['```mermaid', 'flowchart BT'];
  const titles = {
    apps: 'apps: programs',
    examples: 'examples',
    packages: 'packages: published libraries',
  };
  for (const group of ['apps', 'examples', 'packages']) {
    const members = packages.filter((p) => p.group === group);
    if (members.length === 0) continue;
    lines.push(`  subgraph ${group}["${titles[group]}"]`);
    for (const p of members) lines.push(`    ${nodeId(p.manifest.name)}["${p.manifest.name}"]`);
    lines.push('  end');
  }
  for (const p of packages) {
    for (const dep of Object.keys(p.manifest.dependencies ?? {}).sort()) {
      if (names.has(dep)) lines.push(`  ${nodeId(p.manifest.name)} --> ${nodeId(dep)}`);
    }
  }
  lines.push('```');
  return lines.join('\n');
}

function flowDiagram() {
  const lines = ['```mermaid', 'flowchart LR'];
  flow.forEach(([label, folder, file, name], i) => {
    if (folder !== undefined) {
      const path = join(root, folder, file);
      if (!existsSync(path))
        throw new Error(`flow step "${label}": ${folder}/${file} does not exist`);
      const source = readFileSync(path, 'utf8');
      const exported = new RegExp(
        `export (abstract )?(class|function|const|interface|type) ${name}\\b`,
      );
      if (!exported.test(source))
        throw new Error(`flow step "${label}": ${folder}/${file} exports no ${name}`);
      lines.push(`  s${i}["${label}<br/><code>${folder}/${file}</code>"]`);
    } else {
      lines.push(`  s${i}(["${label}"])`);
    }
  });
  for (let i = 1; i < flow.length; i++) lines.push(`  s${i - 1} --> s${i}`);
  lines.push(`  s${flow.length - 1} --> s0`);
  lines.push('```');
  return lines.join('\n');
}

function replaceBetween(text, marker, body) {
  const begin = `<!-- generated:${marker} (tooling/docs/architecture.mjs) -->`;
  const end = `<!-- /generated:${marker} -->`;
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start < 0 || stop < start)
    throw new Error(`docs/architecture.md lacks the ${begin} … ${end} markers`);
  return `${text.slice(0, start + begin.length)}\n${body}\n${text.slice(stop)}`;
}

const before = readFileSync(target, 'utf8');
let after = replaceBetween(before, 'packages', packageGraph(workspacePackages()));
after = replaceBetween(after, 'flow', flowDiagram());
if (process.argv.includes('--check')) {
  if (after !== before) {
    console.error(
      '✘ docs/architecture.md is out of date: run `node tooling/docs/architecture.mjs`',
    );
    process.exit(1);
  }
  console.log('✔ docs/architecture.md diagrams match the sources');
} else {
  writeFileSync(target, after);
  console.log('wrote docs/architecture.md');
}
