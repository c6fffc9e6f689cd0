import { FakeClock } from '@ctrlkit/core/testing';
import { describe, expect, it } from 'vitest';
import { MockProvider } from './mock-provider.js';
import { DEFAULT_PING_COMMAND, runPingCommand } from './process-ping.js';
import { ProcessProvider } from './process-provider.js';

const node = (script: string): string[] => [process.execPath, '-e', script];

describe('process provider ping', () => {
  it('resolves once a child process ran and exited 0', async () => {
    await expect(runPingCommand(DEFAULT_PING_COMMAND, new AbortController().signal)).resolves.toBe(
      undefined,
    );
  });

  it('rejects when the child cannot start or does not exit 0', async () => {
    const signal = new AbortController().signal;
    await expect(runPingCommand(['/nonexistent/ping-me'], signal)).rejects.toThrow(
      'process provider ping: cannot start /nonexistent/ping-me: spawn /nonexistent/ping-me ENOENT',
    );
    await expect(runPingCommand(node('process.exit(3)'), signal)).rejects.toThrow(
      `process provider ping: ${process.execPath} ended with exit code 3`,
    );
  });

  it('a hung ping ends when its signal aborts: rejected with the reason, the child killed', async () => {
    const started = performance.now();
    const hung = runPingCommand(node('setTimeout(() => {}, 60_000)'), AbortSignal.timeout(300));
    await expect(hung).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('provider pings (NodeProvider)', () => {
  it('ProcessProvider.ping runs its ping command and fails with it', async () => {
    const signal = new AbortController().signal;
    const healthy = new ProcessProvider({ internalIP: '10.0.0.1' });
    await expect(healthy.ping(signal)).resolves.toBe(undefined);
    const broken = new ProcessProvider({
      internalIP: '10.0.0.1',
      pingCommand: node('process.exit(1)'),
    });
    await expect(broken.ping(signal)).rejects.toThrow('ended with exit code 1');
    expect(() => new ProcessProvider({ internalIP: '10.0.0.1', pingCommand: [] })).toThrow(
      'invalid pingCommand: must name a program to run',
    );
  });

  it('MockProvider.ping answers after pingLatencyMs, or with the reason when aborted first', async () => {
    const clock = new FakeClock();
    const mock = new MockProvider({ internalIP: '10.0.0.1', pingLatencyMs: 5_000, clock });
    let answered = false;
    const ping = mock.ping(new AbortController().signal).then(() => {
      answered = true;
    });
    clock.step(4_999);
    await Promise.resolve();
    expect(answered).toBe(false);
    clock.step(1);
    await ping;
    expect(answered).toBe(true);
    const stop = new AbortController();
    const hung = mock.ping(stop.signal);
    stop.abort(new Error('deadline'));
    await expect(hung).rejects.toThrow('deadline');
    expect(() => new MockProvider({ internalIP: '10.0.0.1', pingLatencyMs: -1 })).toThrow(
      'invalid pingLatencyMs',
    );
  });
});
