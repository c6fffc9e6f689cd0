import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { type FlagTable, flagUsage, parseFlagTable } from './flags.js';

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
});

describe('flagUsage', () => {
  it('lists every flag, its alias and default after the header, aligned at the column', () => {
    expect(
      flagUsage(table, { header: ['Usage: prog [flags]', '', 'Does things.'], column: 40 }),
    ).toBe(`Usage: prog [flags]

Does things.

Flags:
  --kubeconfig <value>                  kubeconfig file (default (none))
  --node-name <value>                   the node (default )
  --workers <value>                     workers (default 10)
  --offset <value>                      any integer (default (none))
  --metrics-bind-address, --metrics-addr <value> address of /metrics (default :8080)
  --lease                               renew a lease (default true)
  --verbose                             say more (default false)
  --help                                print this help and exit (default false)
`);
  });

  it('quotes value defaults and leaves out the placeholder when asked', () => {
    const text = flagUsage(table, {
      header: ['Usage: prog'],
      column: 24,
      placeholder: '',
      quoteDefaults: true,
    });
    expect(text).toContain('\n  --node-name           the node (default "")\n');
    expect(text).toContain('\n  --workers             workers (default "10")\n');
    expect(text).toContain('\n  --kubeconfig          kubeconfig file (default (none))\n');
    expect(text).toContain('\n  --lease               renew a lease (default true)\n');
  });
});
