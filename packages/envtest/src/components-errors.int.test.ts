// Components that cannot be started: each failure names the component and its log file, and
// leaves no process and no temporary folder behind (only the kept copy of the failed log).

import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { noopLogger } from '@ctrlkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { processesMentioning } from '../test/proc-scan.js';
import { startControlPlane } from './control-plane.js';
import { NotReadyError } from './errors/not-ready-error.js';
import { ProcessExitedError } from './errors/process-exited-error.js';
import { UnknownComponentError } from './errors/unknown-component-error.js';

const logger = noopLogger;
const keptLogs: string[] = [];

afterEach(async () => {
  for (const path of keptLogs.splice(0)) await rm(path, { force: true });
});

/** The temporary folder a kept log `<tmp>/<folder>-<process>.log` came from. */
function folderOf(logPath: string, processName: string): string {
  return join(dirname(logPath), basename(logPath).slice(0, -`-${processName}.log`.length));
}

describe('components that fail', () => {
  it('an unknown component name is UnknownComponentError before anything starts', async () => {
    const error = await startControlPlane({
      logger,
      components: ['kube-scheduler', 'cloud-controller-manager' as never],
    }).catch((e: unknown) => e);
    expect(UnknownComponentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('"cloud-controller-manager" (components[1])');
  });

  it('a component that never gets healthy is NotReadyError naming it and its kept log', async () => {
    // With --secure-port=0 kube-scheduler runs but serves no /healthz.
    const error = await startControlPlane({
      logger,
      components: ['kube-scheduler'],
      schedulerFlags: { 'secure-port': '0' },
      startTimeoutMs: 20_000,
    }).catch((e: unknown) => e);
    expect(NotReadyError.isInstance(error)).toBe(true);
    const notReady = error as NotReadyError;
    expect(notReady.what).toBe('kube-scheduler /healthz');
    expect(notReady.logPath).toMatch(/ctrlkit-envtest-[^/]+-kube-scheduler\.log$/);
    keptLogs.push(notReady.logPath!);
    expect(notReady.message).toContain(`the kube-scheduler log ${notReady.logPath}`);
    expect(readFileSync(notReady.logPath!, 'utf8')).toMatch(/\S/);
    const folder = folderOf(notReady.logPath!, 'kube-scheduler');
    expect(processesMentioning(folder)).toEqual([]);
    expect(existsSync(folder)).toBe(false);
  });

  it('a component that exits is ProcessExitedError naming it and its kept log; its sibling is stopped too', async () => {
    const error = await startControlPlane({
      logger,
      components: ['kube-scheduler', 'kube-controller-manager'],
      controllerManagerFlags: { 'no-such-flag': 'x' },
    }).catch((e: unknown) => e);
    expect(ProcessExitedError.isInstance(error)).toBe(true);
    const exited = error as ProcessExitedError;
    expect(exited.processName).toBe('kube-controller-manager');
    expect(exited.logPath).toMatch(/ctrlkit-envtest-[^/]+-kube-controller-manager\.log$/);
    keptLogs.push(exited.logPath!);
    expect(exited.message).toContain('unknown flag: --no-such-flag');
    expect(exited.message).toContain(exited.logPath);
    expect(readFileSync(exited.logPath!, 'utf8')).toContain('unknown flag: --no-such-flag');
    const folder = folderOf(exited.logPath!, 'kube-controller-manager');
    expect(processesMentioning(folder)).toEqual([]);
    expect(existsSync(folder)).toBe(false);
  });
});
