import { InvalidArgumentError } from '@ctrlkit/runtime';
import { describe, expect, it } from 'vitest';
import { parseFlags, usage } from './flags.js';

describe('flags', () => {
  it('--help lists every flag with its default', () => {
    const text = usage();
    for (const flag of [
      'kubeconfig',
      'node-name',
      'num-devices',
      'partitions',
      'metrics-bind-address',
      'health-probe-bind-address',
      'log-level',
      'help',
    ]) {
      expect(text).toMatch(new RegExp(`--${flag} .*\\(default `));
    }
    expect(text).toContain('(default "8")');
    expect(text).toContain('(default ":8080")');
    expect(parseFlags(['--help'], {}).help).toBe(true);
  });

  it('takes defaults and the NODE_NAME / NUM_DEVICES environment', () => {
    expect(parseFlags([], { NODE_NAME: 'n1', NUM_DEVICES: '4' })).toEqual({
      kubeconfig: '',
      nodeName: 'n1',
      numDevices: 4,
      partitions: 0,
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
      logLevel: 'info',
      help: false,
    });
    expect(parseFlags(['--node-name=n2', '--num-devices', '2'], { NODE_NAME: 'n1' })).toMatchObject(
      { nodeName: 'n2', numDevices: 2 },
    );
  });

  it('rejects bad values naming the flag', () => {
    const flagOf = (argv: string[]) => {
      try {
        parseFlags(argv, {});
      } catch (error) {
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
        return (error as InvalidArgumentError).field;
      }
      return undefined;
    };
    expect(flagOf([])).toBe('--node-name');
    expect(flagOf(['--node-name=a', '--num-devices=x'])).toBe('--num-devices');
    expect(flagOf(['--node-name=a', '--num-devices=200'])).toBe('--num-devices');
    expect(flagOf(['--node-name=a', '--partitions=8'])).toBe('--partitions');
    expect(flagOf(['--node-name=a', '--log-level=loud'])).toBe('--log-level');
    expect(flagOf(['--node-name=a', '--bogus'])).toBe('flags');
  });
});
