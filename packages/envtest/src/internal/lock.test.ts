import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from './lock.js';

describe('withFileLock', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'envtest-lock-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs holders one after the other and removes the lock file', async () => {
    const lock = join(dir, 'build.lock');
    const events: string[] = [];
    const holder = (name: string) =>
      withFileLock(lock, async () => {
        events.push(`${name} in`);
        await sleep(50);
        events.push(`${name} out`);
      });
    await Promise.all([holder('a'), holder('b')]);
    expect([events[0], events[2]].sort()).toEqual(['a in', 'b in']);
    expect(events[1]).toBe(events[0]!.replace('in', 'out'));
    expect(events[3]).toBe(events[2]!.replace('in', 'out'));
    await expect(readFile(lock)).rejects.toThrow(/ENOENT/);
  });

  it('takes over a lock whose holder process is gone', async () => {
    const lock = join(dir, 'build.lock');
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    await writeFile(
      lock,
      JSON.stringify({ pid: gone, hostname: hostname(), since: '2026-01-01T00:00:00Z' }),
    );
    const waits: unknown[] = [];
    await expect(
      withFileLock(
        lock,
        async () => 'built',
        (h) => waits.push(h),
      ),
    ).resolves.toBe('built');
    expect(waits).toEqual([]);
  });

  it('reports who it waits for', async () => {
    const lock = join(dir, 'build.lock');
    await writeFile(lock, JSON.stringify({ pid: process.pid, hostname: hostname(), since: 'now' }));
    const waits: Array<number | undefined> = [];
    const waiting = withFileLock(
      lock,
      async () => 'done',
      (h) => waits.push(h?.pid),
      10,
    );
    await sleep(700);
    await rm(lock);
    await expect(waiting).resolves.toBe('done');
    expect(waits[0]).toBe(process.pid);
  });
});
