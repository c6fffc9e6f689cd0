import { describe, expect, it } from 'vitest';
import { FLAGS, parseFlags, usage } from './flags.js';

const flagOf = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    parseFlags(argv, env);
  } catch (error) {
    return (error as { field?: string }).field;
  }
  return undefined;
};

describe('flags', () => {
  it('--help lists every flag, both spellings of the address flags, and each default', () => {
    const text = usage();
    for (const name of Object.keys(FLAGS))
      expect(text).toMatch(new RegExp(`--${name}[ ,].*\\(default `));
    expect(text).toContain('--metrics-bind-address, --metrics-addr');
    expect(text).toContain('--health-probe-bind-address, --healthz-addr');
    for (const def of [
      '(default "20")',
      '(default ":8080")',
      '(default ":8081")',
      '(default "/ova")',
      '(default false)',
    ]) {
      expect(text).toContain(def);
    }
    expect(parseFlags(['--help'], {}).help).toBe(true);
  });

  it('defaults: no leader election, 20 VMs in flight, controller-runtime addresses, /ova, info', () => {
    expect(parseFlags([], {})).toEqual({
      kubeconfig: undefined,
      leaderElect: false,
      leaderElectionId: 'ctrlkit-migration-controller',
      leaderElectionNamespace: undefined,
      maxVmInflight: 20,
      metricsBindAddress: ':8080',
      healthProbeBindAddress: ':8081',
      ovaCatalogPath: '/ova',
      destination: 'kubevirt',
      logLevel: 'info',
      help: false,
    });
  });

  it('accepts both spellings of the address flags, and MAX_VM_INFLIGHT from the environment', () => {
    expect(parseFlags(['--metrics-addr=:9090', '--healthz-addr', '0'], {})).toMatchObject({
      metricsBindAddress: ':9090',
      healthProbeBindAddress: '0',
    });
    expect(
      parseFlags(['--metrics-bind-address=:1', '--metrics-addr=:1'], {}).metricsBindAddress,
    ).toBe(':1');
    expect(parseFlags([], { MAX_VM_INFLIGHT: '5' }).maxVmInflight).toBe(5);
    expect(parseFlags(['--max-vm-inflight=7'], { MAX_VM_INFLIGHT: '5' }).maxVmInflight).toBe(7);
    expect(parseFlags(['--leader-elect', '--leader-election-namespace=ns'], {})).toMatchObject({
      leaderElect: true,
      leaderElectionNamespace: 'ns',
    });
  });

  it('rejects bad values naming the flag', () => {
    expect(flagOf(['--max-vm-inflight=0'])).toBe('--max-vm-inflight');
    expect(flagOf(['--max-vm-inflight=x'])).toBe('--max-vm-inflight');
    expect(flagOf([], { MAX_VM_INFLIGHT: '-1' })).toBe('--max-vm-inflight');
    expect(flagOf(['--log-level=loud'])).toBe('--log-level');
    expect(flagOf(['--destination=vsphere'])).toBe('--destination');
    expect(flagOf(['--leader-election-id=Not_Valid'])).toBe('--leader-election-id');
    expect(flagOf(['--ova-catalog-path=relative'])).toBe('--ova-catalog-path');
    expect(flagOf(['--metrics-addr=:1', '--metrics-bind-address=:2'])).toBe(
      '--metrics-bind-address',
    );
    expect(flagOf(['--bogus'])).toBe('flags');
  });
});
