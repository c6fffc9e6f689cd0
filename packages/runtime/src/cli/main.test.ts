import { InvalidArgumentError, type Logger } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { type MainIo, type MainProgram, runMain } from './main.js';

interface Flags {
  help: boolean;
  fail: boolean;
}

/** A program, the io it ran with, and what it wrote, logged and exited with. */
function harness(argv: string[], run?: MainProgram<Flags, Logger>['run']) {
  const out: string[] = [];
  const err: string[] = [];
  const logs: { level: string; context: object; message?: string }[] = [];
  const exits: number[] = [];
  const calls: { flags: Flags; signal: AbortSignal }[] = [];
  const controller = new AbortController();
  const logger: Logger = {
    debug: (context, message) => logs.push({ level: 'debug', context, message }),
    info: (context, message) => logs.push({ level: 'info', context, message }),
    warn: (context, message) => logs.push({ level: 'warn', context, message }),
    error: (context, message) => logs.push({ level: 'error', context, message }),
  };
  const program: MainProgram<Flags, Logger> = {
    parse(args) {
      const flags = { help: false, fail: false };
      for (const arg of args) {
        if (arg === '--help') flags.help = true;
        else if (arg === '--fail') flags.fail = true;
        else if (arg === '--crash') throw new TypeError('parser bug');
        else throw new InvalidArgumentError(arg, 'unknown flag');
      }
      return flags;
    },
    usage: () => 'Usage: prog [flags]\n',
    logger: () => logger,
    run:
      run ??
      (async (flags, _logger, signal) => {
        calls.push({ flags, signal });
        if (flags.fail) throw new Error('boom');
      }),
  };
  const io: MainIo = {
    argv,
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    signal: () => controller.signal,
    exit: (code) => exits.push(code),
  };
  return { program, io, out, err, logs, exits, calls, signal: controller.signal };
}

describe('runMain', () => {
  it('a bad flag: its message and the usage on stderr, exit 2, nothing run', async () => {
    const h = harness(['--bogus']);
    expect(await runMain(h.program, h.io)).toBe(2);
    expect(h.err.join('')).toBe('invalid --bogus: unknown flag\n\nUsage: prog [flags]\n');
    expect(h.out).toEqual([]);
    expect(h.calls).toEqual([]);
    expect(h.exits).toEqual([]);
  });

  it('--help: the usage on stdout, exit 0, nothing run', async () => {
    const h = harness(['--help']);
    expect(await runMain(h.program, h.io)).toBe(0);
    expect(h.out.join('')).toBe('Usage: prog [flags]\n');
    expect(h.err).toEqual([]);
    expect(h.calls).toEqual([]);
    expect(h.exits).toEqual([]);
  });

  it('runs with the flags, the logger and the signal; a clean stop exits 0 at once', async () => {
    const h = harness([]);
    expect(await runMain(h.program, h.io)).toBe(0);
    expect(h.calls).toEqual([{ flags: { help: false, fail: false }, signal: h.signal }]);
    expect(h.exits).toEqual([0]);
    expect(h.logs).toEqual([]);
  });

  it('a fatal error from run is logged and exits 1 at once', async () => {
    const h = harness(['--fail']);
    expect(await runMain(h.program, h.io)).toBe(1);
    expect(h.exits).toEqual([1]);
    expect(h.logs).toEqual([
      {
        level: 'error',
        context: { err: expect.objectContaining({ message: 'boom' }) },
        message: 'stopped with an error',
      },
    ]);
  });

  it('waits for run to end', async () => {
    let finish = () => {};
    const h = harness([], () => new Promise<void>((resolve) => (finish = resolve)));
    const done = runMain(h.program, h.io);
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.exits).toEqual([]);
    finish();
    expect(await done).toBe(0);
    expect(h.exits).toEqual([0]);
  });

  it('an unexpected error before run: its stack on stderr, exit 1 without forcing the exit', async () => {
    const h = harness(['--crash']);
    expect(await runMain(h.program, h.io)).toBe(1);
    expect(h.err.join('')).toMatch(/^TypeError: parser bug\n\s+at /);
    expect(h.exits).toEqual([]);
  });
});
