import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { type FlagTable, flagUsage, parseFlagTable, parseFlagTableWithArgs } from './flags.js';

const table = {
  kubeconfig: { type: 'string', help: 'kubeconfig file' },
  'node-name': { type: 'string', default: '', env: 'NODE_NAME', help: 'the node' },
  workers: { type: 'integer', default: 10, min: 1, env: 'WORKERS', help: 'workers' },
  offset: { type: 'integer', help: 'any integer' },
  'metrics-bind-address': {
    type: 'string',
    default: ':8080',
    alias: 'metrics-addr',
    help: 'address of /metrics',
  },
  lease: { type: 'boolean', default: true, help: 'renew a lease' },
  verbose: { type: 'boolean', env: 'VERBOSE', help: 'say more' },
  help: { type: 'boolean', help: 'print this help and exit' },
} satisfies FlagTable;

/** The InvalidArgumentError `argv` and `env` make parseFlagTable throw. */
function failure(argv: string[], env: NodeJS.ProcessEnv = {}): InvalidArgumentError {
  try {
    parseFlagTable(table, argv, env);
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`parsed ${argv.join(' ')}`);
}

describe('parseFlagTable', () => {
  it('takes the defaults: a boolean without one is false, a value flag without one undefined', () => {
    const values = parseFlagTable(table, [], {});
    expect(values).toEqual({
      kubeconfig: undefined,
      'node-name': '',
      workers: 10,
      offset: undefined,
      'metrics-bind-address': ':8080',
      lease: true,
      verbose: false,
      help: false,
    });
    // typed per flag: a number, a boolean, a string that may be missing
    const workers: number = values.workers;
    const lease: boolean = values.lease;
    const kubeconfig: string | undefined = values.kubeconfig;
    expect([workers, lease, kubeconfig]).toEqual([10, true, undefined]);
  });

  it('parses both forms of a value, integers, booleans and --no-<flag>', () => {
    expect(
      parseFlagTable(
        table,
        ['--kubeconfig', '/k', '--workers=3', '--offset=-4', '--no-lease', '--verbose', '--help'],
        {},
      ),
    ).toMatchObject({
      kubeconfig: '/k',
      workers: 3,
      offset: -4,
      lease: false,
      verbose: true,
      help: true,
    });
  });

  it('falls back to the environment after the flag and before the default', () => {
    const env = { NODE_NAME: 'n1', WORKERS: '4', VERBOSE: 'true' };
    expect(parseFlagTable(table, [], env)).toMatchObject({
      'node-name': 'n1',
      workers: 4,
      verbose: true,
    });
    expect(parseFlagTable(table, ['--node-name=n2', '--workers=5'], env)).toMatchObject({
      'node-name': 'n2',
      workers: 5,
    });
    expect(parseFlagTable(table, [], { NODE_NAME: '' })['node-name']).toBe('');
    expect(failure([], { WORKERS: 'many' }).field).toBe('--workers');
    expect(failure([], { VERBOSE: 'yes' }).message).toBe(
      'invalid --verbose: must be true or false, got "yes"',
    );
  });

  it('accepts the alias, and both spellings when they agree', () => {
    expect(parseFlagTable(table, ['--metrics-addr=:9090'], {})['metrics-bind-address']).toBe(
      ':9090',
    );
    expect(
      parseFlagTable(table, ['--metrics-addr=:1', '--metrics-bind-address=:1'], {})[
        'metrics-bind-address'
      ],
    ).toBe(':1');
    const disagree = failure(['--metrics-addr=:1', '--metrics-bind-address=:2']);
    expect(disagree.field).toBe('--metrics-bind-address');
    expect(disagree.message).toBe(
      'invalid --metrics-bind-address: --metrics-bind-address and --metrics-addr disagree (:2 vs :1)',
    );
  });

  it('rejects malformed integers naming the flag', () => {
    for (const text of ['x', '', '1.5', '1e3', '0x10', ' 4', '+4', '99999999999999999999']) {
      const error = failure([`--workers=${text}`]);
      expect(error.field).toBe('--workers');
      expect(error.message).toBe(
        `invalid --workers: must be an integer >= 1, got ${JSON.stringify(text)}`,
      );
    }
    expect(failure(['--workers=0']).field).toBe('--workers');
    expect(failure(['--offset=x']).message).toBe('invalid --offset: must be an integer, got "x"');
  });

  it('rejects an unknown flag, a positional and a missing value with field "flags"', () => {
    expect(failure(['--bogus']).field).toBe('flags');
    expect(failure(['--bogus']).message).toContain("'--bogus'");
    expect(failure(['stray']).field).toBe('flags');
    expect(failure(['--workers']).field).toBe('flags');
    expect(failure(['--workers']).message).toContain('--workers');
    expect(failure(['--help=yes']).field).toBe('flags');
  });

  it("words parseArgs' complaints as the other flag errors", () => {
    expect(failure(['--bogus']).message).toBe("invalid flags: unknown flag '--bogus'");
    expect(failure(['stray']).message).toBe("invalid flags: unexpected argument 'stray'");
    expect(failure(['--help=yes']).message).toBe("invalid flags: flag '--help' takes no value");
    expect(failure(['--workers']).message).toBe(
      "invalid flags: flag '--workers' needs a value (--name=-x for a value that starts with a dash)",
    );
  });
});

describe('parseFlagTable: numbers, ranges, choices and short flags', () => {
  const more = {
    rate: { type: 'number', default: 0, min: 0, max: 1, help: 'a fraction' },
    qps: { type: 'number', default: 50, min: 1, help: 'requests per second' },
    level: { type: 'string', default: 'info', choices: ['info', 'debug'] as const, help: 'level' },
    count: { type: 'integer', default: 8, min: 0, max: 128, help: 'how many' },
    namespace: { type: 'string', short: 'n', help: 'namespace' },
  } satisfies FlagTable;
  const fail = (argv: string[]): InvalidArgumentError => {
    try {
      parseFlagTable(more, argv, {});
    } catch (error) {
      if (InvalidArgumentError.isInstance(error)) return error;
      throw error;
    }
    throw new Error(`parsed ${argv.join(' ')}`);
  };

  it('parses numbers and short flags, typing a flag with choices as their union', () => {
    const values = parseFlagTable(more, ['--rate=0.25', '--qps', '2.5', '-n', 'ns'], {});
    expect(values).toEqual({ rate: 0.25, qps: 2.5, level: 'info', count: 8, namespace: 'ns' });
    const level: 'info' | 'debug' = values.level;
    expect(level).toBe('info');
    expect(parseFlagTable(more, ['--level=debug', '--count=128'], {})).toMatchObject({
      level: 'debug',
      count: 128,
    });
  });

  it('rejects a value out of range, not a number, or not a choice, naming the flag', () => {
    expect(fail(['--rate=2']).message).toBe(
      'invalid --rate: must be a number >= 0 and <= 1, got "2"',
    );
    expect(fail(['--qps=x']).message).toBe('invalid --qps: must be a number >= 1, got "x"');
    expect(fail(['--qps=Infinity']).field).toBe('--qps');
    expect(fail(['--count=129']).message).toBe(
      'invalid --count: must be an integer >= 0 and <= 128, got "129"',
    );
    expect(fail(['--level=loud']).message).toBe(
      'invalid --level: must be one of info, debug, got "loud"',
    );
  });

  it('parseFlagTableWithArgs returns the positional arguments, flags between them', () => {
    expect(parseFlagTableWithArgs(more, ['status', '-n', 'ns', 'plan-1'], {})).toEqual({
      flags: { rate: 0, qps: 50, level: 'info', count: 8, namespace: 'ns' },
      args: ['status', 'plan-1'],
    });
  });
});

describe('parseFlagTable: durations', () => {
  const timed = {
    resync: { type: 'duration', default: 60_000, min: 0, help: 'resync period' },
    ping: { type: 'duration', default: 10_000, min: 1, env: 'PING', help: 'ping interval' },
    timeout: { type: 'duration', help: 'a timeout' },
    cap: { type: 'duration', min: 0, max: 3_600_000, help: 'capped' },
  } satisfies FlagTable;
  const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseFlagTable(timed, argv, env);
  const fail = (argv: string[], env: NodeJS.ProcessEnv = {}): InvalidArgumentError => {
    try {
      parse(argv, env);
    } catch (error) {
      if (InvalidArgumentError.isInstance(error)) return error;
      throw error;
    }
    throw new Error(`parsed ${argv.join(' ')}`);
  };

  it('takes Go durations and plain ms, from the flag or its env, as ms', () => {
    expect(parse([])).toEqual({ resync: 60_000, ping: 10_000, timeout: undefined, cap: undefined });
    expect(parse(['--resync=1m30s', '--ping', '500ms', '--timeout=1.5h'])).toEqual({
      resync: 90_000,
      ping: 500,
      timeout: 5_400_000,
      cap: undefined,
    });
    // plain numbers are ms, as the flags took before
    expect(parse(['--resync=0', '--ping=2500', '--timeout=0.5'])).toMatchObject({
      resync: 0,
      ping: 2500,
      timeout: 0.5,
    });
    expect(parse([], { PING: '2s' }).ping).toBe(2000);
    const ping: number = parse([]).ping;
    expect(ping).toBe(10_000);
  });

  it('rejects a malformed or out-of-range duration naming the flag, bounds in Go form', () => {
    expect(fail(['--timeout=10x']).message).toBe(
      'invalid --timeout: must be a duration (e.g. 30s, 1m30s, 500ms, or ms), got "10x"',
    );
    for (const text of ['', 'soon', '1 s', '1d', '--1s', '1e3']) {
      expect(fail([`--timeout=${text}`]).field).toBe('--timeout');
    }
    expect(fail(['--ping=0s']).message).toBe(
      'invalid --ping: must be a duration (e.g. 30s, 1m30s, 500ms, or ms) >= 1ms, got "0s"',
    );
    expect(fail(['--resync=-1s']).field).toBe('--resync');
    expect(fail(['--cap=2h']).message).toBe(
      'invalid --cap: must be a duration (e.g. 30s, 1m30s, 500ms, or ms) >= 0s and <= 1h0m0s, got "2h"',
    );
    expect(fail([], { PING: 'often' }).field).toBe('--ping');
  });

  it('shows the type as duration and the default as Go prints it', () => {
    expect(flagUsage(timed, { header: ['Usage: prog'] })).toBe(`Usage: prog

Flags:
  --resync duration
        resync period (default 1m0s)
  --ping duration
        ping interval (env PING) (default 10s)
  --timeout duration
        a timeout
  --cap duration
        capped
`);
  });
});

describe('flagUsage', () => {
  it("lays out every flag as Go's flag.PrintDefaults: spellings and type, then help, env and a non-zero default", () => {
    expect(
      flagUsage(table, { header: ['Usage: prog [flags]', '', 'Does things.'] }),
    ).toBe(`Usage: prog [flags]

Does things.

Flags:
  --kubeconfig string
        kubeconfig file
  --node-name string
        the node (env NODE_NAME)
  --workers int
        workers (env WORKERS) (default 10)
  --offset int
        any integer
  --metrics-bind-address, --metrics-addr string
        address of /metrics (default ":8080")
  --lease
        renew a lease (default true)
  --verbose
        say more (env VERBOSE)
  --help
        print this help and exit
`);
  });

  it('shows short spellings first, float for a number, and leaves out zero defaults', () => {
    const text = flagUsage(
      {
        namespace: { type: 'string', short: 'n', default: '', help: 'namespace' },
        rate: { type: 'number', default: 0.5, help: 'a fraction' },
        zero: { type: 'number', default: 0, help: 'zero' },
        off: { type: 'boolean', default: false, help: 'off' },
      },
      { header: ['Usage: prog'] },
    );
    expect(text).toBe(`Usage: prog

Flags:
  -n, --namespace string
        namespace
  --rate float
        a fraction (default 0.5)
  --zero float
        zero
  --off
        off
`);
  });
});
