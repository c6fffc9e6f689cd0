// Every published package, through its package.json exports only: each subpath loads, and
// every error class it exports extends @ctrlkit/core's CtrlkitError.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CtrlkitError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';

const packagesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../packages');

/** `@ctrlkit/x` and `@ctrlkit/x/sub` for every export of every published package. */
function publishedEntryPoints(): string[] {
  const entries: string[] = [];
  for (const dir of readdirSync(packagesDir)) {
    const manifest = JSON.parse(readFileSync(join(packagesDir, dir, 'package.json'), 'utf8')) as {
      name: string;
      private?: boolean;
      exports: Record<string, unknown>;
    };
    if (manifest.private) continue;
    for (const subpath of Object.keys(manifest.exports)) {
      if (subpath === './package.json') continue;
      entries.push(subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`);
    }
  }
  return entries.sort();
}

/** True for a class whose instances are Errors. */
function isErrorClass(value: unknown): value is new (...args: never[]) => Error {
  return typeof value === 'function' && value.prototype instanceof Error;
}

const entryPoints = publishedEntryPoints();

describe('the public surface', () => {
  it('lists every package and subpath', () => {
    expect(entryPoints).toContain('@ctrlkit/core');
    expect(entryPoints).toContain('@ctrlkit/core/testing');
    expect(entryPoints).toContain('@ctrlkit/client');
    expect(entryPoints).toContain('@ctrlkit/client/testing');
    expect(entryPoints.length).toBeGreaterThan(10);
  });

  it.each(entryPoints)('%s: every exported error class extends CtrlkitError', async (entry) => {
    const module = (await import(entry)) as Record<string, unknown>;
    expect(Object.keys(module).length).toBeGreaterThan(0);
    const strays = Object.entries(module)
      .filter(([, value]) => isErrorClass(value))
      .filter(([, value]) => !((value as { prototype: object }).prototype instanceof CtrlkitError))
      .filter(([, value]) => value !== CtrlkitError)
      .map(([name]) => name);
    expect(strays).toEqual([]);
  });
});
