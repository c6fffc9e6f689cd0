import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import { parseFlags, usage } from './flags.js';

describe('flags', () => {
  it('--help lists every flag with its non-zero default, in the one flag-table format', () => {
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
      expect(text).toContain(`\n  --${flag}`);
    }
    expect(text).toContain('(default 8)');
    expect(text).toContain('(default ":8080")');
    expect(text).toBe(`Usage: ctrlkit-dra-example-driver [flags]

Publishes simulated GPUs of one node as DRA ResourceSlices (driver gpu.example.com).

Flags:
  --kubeconfig string
        kubeconfig file; when unset: $KUBECONFIG, in-cluster, then ~/.kube/config
  --insecure-skip-tls-verify
        don't verify the apiserver's certificate (overrides the kubeconfig; insecure: for testing only)
  --kube-api-content-type string
        the wire format asked of the apiserver for built-in types: application/vnd.kubernetes.protobuf or application/json (custom resources are JSON either way) (default "application/vnd.kubernetes.protobuf")
  --node-name string
        the node whose GPUs are published (required) (env NODE_NAME)
  --num-devices int
        simulated GPUs on the node (env NUM_DEVICES) (default 8)
  --partitions int
        partitions per GPU, published with shared counters; 0 for whole GPUs only (env PARTITIONS)
  --metrics-bind-address string
        address of /metrics; '0' turns it off (default ":8080")
  --health-probe-bind-address string
        address of /healthz and /readyz; '0' turns it off (default ":8081")
  --log-level string
        trace, debug, info, warn, error or fatal (JSON lines on stdout) (default "info")
  --help
        print this help and exit
`);
    expect(parseFlags(['--help'], {}).help).toBe(true);
  });

  it('takes defaults and the NODE_NAME / NUM_DEVICES environment', () => {
    expect(parseFlags([], { NODE_NAME: 'n1', NUM_DEVICES: '4' })).toEqual({
      kubeconfig: '',
      insecureSkipTlsVerify: false,
      kubeApiContentType: 'application/vnd.kubernetes.protobuf',
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
    expect(() => parseFlags(['--node-name=a', '--log-level=loud'], {})).toThrow(
      'invalid --log-level: must be one of trace, debug, info, warn, error, fatal, got "loud"',
    );
  });
});
