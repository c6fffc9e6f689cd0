// Unit tests of where tests find the Go programs (node --test; no Go build runs here).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { buildGoPrograms, GO_PROGRAMS, goProgram, goProgramPath } from './programs.mjs';

const cache = mkdtempSync(join(tmpdir(), 'ctrlkit-go-programs-test-'));
const env = { ...process.env, XDG_CACHE_HOME: cache };
after(() => rmSync(cache, { recursive: true, force: true }));

test('a missing program fails with a message naming the set-up command', () => {
  assert.throws(
    () => goProgram('leaderelection', env),
    /Go program leaderelection .* is not built .*run `pnpm setup:go leaderelection`/,
  );
});

test('the path is in the cache, keyed by a hash of the sources', () => {
  const path = goProgramPath('leaderelection', env);
  assert.match(path, /\/ctrlkit\/go-programs\/leaderelection-[0-9a-f]{12}\/leaderelection$/);
  assert.ok(path.startsWith(cache));
  assert.notEqual(
    dirname(goProgramPath('leaderelection', env)),
    dirname(goProgramPath('dra-resourceslice-interop', env)),
  );
});

test('a built program is found, and not built again', async () => {
  const path = goProgramPath('bench-workqueue', env);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
  assert.equal(goProgram('bench-workqueue', env), path);
  const lines = [];
  await buildGoPrograms(['bench-workqueue'], { env, log: (l) => lines.push(l) });
  assert.deepEqual(lines, [`Go program bench-workqueue: cached (${path})`]);
});

test('an unknown name is rejected, naming the known ones', () => {
  assert.throws(() => goProgram('nope', env), /unknown Go program "nope" \(known: leaderelection,/);
  assert.ok(GO_PROGRAMS.some((p) => p.kind === 'test'));
});
