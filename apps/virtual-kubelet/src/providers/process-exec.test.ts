import { PassThrough, Readable } from 'node:stream';
import type { AttachIO } from '@ctrlkit/node-controller';
import { describe, expect, it } from 'vitest';
import { execProcess } from './process-exec.js';

/** Streams for a command: stdin from `input` (none when undefined), stdout and stderr kept. */
function io(input?: string, tty = false) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const attach: AttachIO = {
    stdin: () => (input === undefined ? undefined : Readable.from([input])),
    stdout: () => stdout,
    stderr: () => (tty ? undefined : stderr),
    tty: () => tty,
    resize: () => Readable.from([]),
  };
  const text = (s: PassThrough) => (s.read() ?? '').toString();
  return { attach, out: () => text(stdout), err: () => text(stderr) };
}

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', WHO: 'container' };
const never = new AbortController().signal;

describe('execProcess', () => {
  it('resolves to the exit code, with the environment given, stdout and stderr apart', async () => {
    const streams = io();
    const code = await execProcess(
      ['sh', '-c', 'echo "$WHO"; echo oops >&2; exit 7'],
      env,
      streams.attach,
      never,
    );
    expect(code).toBe(7);
    expect(streams.out()).toBe('container\n');
    expect(streams.err()).toBe('oops\n');
  });

  it('pipes stdin until it ends (cat), and with a TTY sends stderr to stdout', async () => {
    const streams = io('a\nb\n', true);
    expect(await execProcess(['sh', '-c', 'cat; echo e >&2'], env, streams.attach, never)).toBe(0);
    expect(streams.out()).toBe('a\nb\ne\n');
  });

  it('rejects with the system message when the command does not exist', async () => {
    await expect(execProcess(['no-such-command-here'], env, io().attach, never)).rejects.toThrow(
      /"no-such-command-here": spawn no-such-command-here ENOENT/,
    );
  });

  it('kills the command when the signal aborts: 128 + SIGKILL', async () => {
    const controller = new AbortController();
    const running = execProcess(['sleep', '30'], env, io().attach, controller.signal);
    controller.abort();
    expect(await running).toBe(137);
  });
});
