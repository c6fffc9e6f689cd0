//! A lock file shared by processes on one machine, so that parallel test runs build once.

import { open, readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** Who holds a lock, as written into the lock file. */
export interface LockHolder {
  readonly pid: number;
  readonly hostname: string;
  readonly since: string;
}

/** How often a waiter looks at the lock again, in ms. */
const POLL_MS = 500;
/** A lock file that stays unreadable this long (its writer died mid-write) is stale, in ms. */
const UNREADABLE_STALE_MS = 10_000;

/**
 * Runs `fn` while holding `lockPath`. A lock whose holder process is gone (same host,
 * pid not alive) is taken over. `onWait` is called when this call starts waiting and
 * then every `reportEveryMs`.
 */
export async function withFileLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  onWait: (holder: LockHolder | undefined, waitedMs: number) => void = () => {},
  reportEveryMs = 30_000,
): Promise<T> {
  const started = performance.now();
  let lastReport = Number.NEGATIVE_INFINITY;
  for (;;) {
    if (await tryAcquire(lockPath)) break;
    const holder = await readHolder(lockPath);
    if (await isStale(lockPath, holder)) {
      await unlink(lockPath).catch(() => {});
      continue;
    }
    const waited = performance.now() - started;
    if (waited - lastReport >= reportEveryMs) {
      lastReport = waited;
      onWait(holder, Math.round(waited));
    }
    await sleep(POLL_MS);
  }
  try {
    return await fn();
  } finally {
    await unlink(lockPath).catch(() => {});
  }
}

async function tryAcquire(lockPath: string): Promise<boolean> {
  try {
    const file = await open(lockPath, 'wx');
    const holder: LockHolder = {
      pid: process.pid,
      hostname: hostname(),
      since: new Date().toISOString(),
    };
    await file.writeFile(JSON.stringify(holder));
    await file.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function readHolder(lockPath: string): Promise<LockHolder | undefined> {
  try {
    const holder = JSON.parse(await readFile(lockPath, 'utf8')) as LockHolder;
    return typeof holder.pid === 'number' ? holder : undefined;
  } catch {
    return undefined;
  }
}

async function isStale(lockPath: string, holder: LockHolder | undefined): Promise<boolean> {
  if (holder === undefined) {
    const info = await stat(lockPath).catch(() => undefined);
    return info !== undefined && Date.now() - info.mtimeMs > UNREADABLE_STALE_MS;
  }
  return holder.hostname === hostname() && !isAlive(holder.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
