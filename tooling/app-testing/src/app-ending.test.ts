import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { appEnding, type ExitOutcome } from './app-ending.js';

/** A process that runs until a signal ends it, and its exit. */
function sleeper() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    stdio: 'ignore',
  });
  const exited = new Promise<ExitOutcome>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  return { child, exited };
}

/** A check that fails as the least-privilege check does, naming the rule, and counts its runs. */
function failingCheck() {
  const calls: number[] = [];
  const check = async () => {
    calls.push(calls.length);
    throw new Error(
      'deploy/ is not least privilege:\n- unused: ClusterRole app, rule 0 (pods): watch never used',
    );
  };
  return { calls, check };
}

describe('appEnding', () => {
  it('kill() runs the check, as stop() does: a killed app is not let off', async () => {
    const { child, exited } = sleeper();
    const { calls, check } = failingCheck();
    const ending = appEnding(child, exited, check);
    await expect(ending.kill()).rejects.toThrow('ClusterRole app, rule 0 (pods)');
    expect(await exited).toBe('SIGKILL');
    expect(calls).toEqual([0]);
  });

  it('stop() sends SIGTERM and runs the check', async () => {
    const { child, exited } = sleeper();
    const { calls, check } = failingCheck();
    const ending = appEnding(child, exited, check);
    await expect(ending.stop()).rejects.toThrow('ClusterRole app, rule 0 (pods)');
    expect(await exited).toBe('SIGTERM');
    expect(calls).toEqual([0]);
  });

  it('runs the check once: stop() after kill() (or again) returns the first outcome', async () => {
    const { child, exited } = sleeper();
    let checks = 0;
    const ending = appEnding(child, exited, async () => {
      checks++;
    });
    await ending.kill();
    expect(await ending.stop()).toBe('SIGKILL');
    await ending.kill();
    expect(checks).toBe(1);
  });

  it('checks an app that already exited by itself, sending no signal', async () => {
    const child = spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: 'ignore' });
    const exited = new Promise<ExitOutcome>((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? signal)),
    );
    await exited;
    const { calls, check } = failingCheck();
    await expect(appEnding(child, exited, check).kill()).rejects.toThrow('rule 0');
    expect(calls).toEqual([0]);
  });
});
