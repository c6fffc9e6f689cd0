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
  --kube-api-qps float
        requests per second to the apiserver (client-side limit; > 0) (env KUBE_API_QPS) (default 5)
  --kube-api-burst int
        requests sent to the apiserver at once before --kube-api-qps applies (env KUBE_API_BURST) (default 10)
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
      kubeApiQps: 5,
      kubeApiBurst: 10,
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

  it("takes upstream's client rate limit, --kube-api-qps 5 and --kube-api-burst 10, and KUBE_API_QPS / KUBE_API_BURST", () => {
    expect(parseFlags(['--node-name=a'], {})).toMatchObject({ kubeApiQps: 5, kubeApiBurst: 10 });
    expect(
      parseFlags(['--node-name=a'], { KUBE_API_QPS: '0.5', KUBE_API_BURST: '1' }),
    ).toMatchObject({ kubeApiQps: 0.5, kubeApiBurst: 1 });
    expect(
      parseFlags(['--node-name=a', '--kube-api-qps=50', '--kube-api-burst=100'], {
        KUBE_API_QPS: '0.5',
      }),
    ).toMatchObject({ kubeApiQps: 50, kubeApiBurst: 100 });
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
    // 10 partitioned GPUs are 10 counter sets: more than a slice holds (the apiserver's 8).
    expect(flagOf(['--node-name=a', '--num-devices=10', '--partitions=2'])).toBe('--num-devices');
    expect(parseFlags(['--node-name=a', '--num-devices=8', '--partitions=2'], {}).numDevices).toBe(
      8,
    );
    expect(flagOf(['--node-name=a', '--log-level=loud'])).toBe('--log-level');
    expect(flagOf(['--node-name=a', '--kube-api-qps=0'])).toBe('--kube-api-qps');
    expect(flagOf(['--node-name=a', '--kube-api-qps=-1'])).toBe('--kube-api-qps');
    expect(flagOf(['--node-name=a', '--kube-api-burst=0'])).toBe('--kube-api-burst');
    expect(flagOf(['--node-name=a', '--bogus'])).toBe('flags');
    expect(() => parseFlags(['--node-name=a', '--log-level=loud'], {})).toThrow(
      'invalid --log-level: must be one of trace, debug, info, warn, error, fatal, got "loud"',
    );
  });
});
