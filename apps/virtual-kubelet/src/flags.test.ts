import {
  DEFAULT_LEASE_DURATION_SECONDS,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_STATUS_UPDATE_INTERVAL_MS,
} from '@ctrlkit/node-controller';
import { describe, expect, it } from 'vitest';
import { FLAGS, parseFlags, usage } from './flags.js';

describe('flags', () => {
  it('--help lists every flag with its non-zero default, in the one flag-table format', () => {
    const text = usage();
    for (const [name, spec] of Object.entries(FLAGS)) {
      expect(text).toContain(`\n  --${name}`);
      const shown =
        spec.default === undefined || spec.default === 0 || spec.default === false
          ? undefined
          : typeof spec.default === 'string'
            ? JSON.stringify(spec.default)
            : String(spec.default);
      if (shown !== undefined) expect(text).toContain(`(default ${shown})`);
    }
    expect(text).toBe(`Usage: ctrlkit-virtual-kubelet [flags]

A virtual Kubernetes node whose pods run on a provider.

Flags:
  --kubeconfig string
        kubeconfig file; when unset: $KUBECONFIG, in-cluster, then ~/.kube/config
  --nodename string
        name of the virtual Node (default "virtual-kubelet")
  --provider string
        provider that runs the pods: mock, or process (each container a local child process) (default "mock")
  --pod-sync-workers int
        workers per pod queue (default 10)
  --enable-node-lease
        renew a Lease in kube-node-lease (--no-enable-node-lease to turn off) (default true)
  --node-lease-duration-seconds int
        node lease duration in seconds; renewed every 25% (default 40)
  --node-ping-interval int
        ms between provider pings (and status updates without a lease) (default 10000)
  --node-status-update-interval int
        ms between node status updates when the lease is on (default 60000)
  --metrics-addr string
        address of /metrics (Prometheus); '0' turns it off (default ":10255")
  --healthz-addr string
        address of /healthz and /readyz; '0' turns it off (default ":8081")
  --internal-ip string
        the node's InternalIP; when unset: $VKUBELET_POD_IP, then the first non-loopback IPv4 address
  --listen-port int
        the node's kubelet port (daemonEndpoints.kubeletEndpoint.Port) (default 10250)
  --tls-cert-file string
        serving certificate (PEM) of the kubelet API; when unset: a self-signed one
  --tls-key-file string
        private key (PEM) of --tls-cert-file
  --mock-start-latency float
        mock provider: ms before a created pod runs
  --mock-create-failure-rate float
        mock provider: fraction (0..1) of pod creations that fail
  --kube-api-qps float
        client-side requests per second to the apiserver (default 50)
  --kube-api-burst int
        client-side burst of requests to the apiserver (default 100)
  --log-level string
        trace, debug, info, warn, error or fatal (JSON lines on stdout) (default "info")
  --help
        print this help and exit
`);
  });

  it("defaults are the library's and virtual-kubelet's", () => {
    const flags = parseFlags([]);
    expect(flags).toMatchObject({
      nodename: 'virtual-kubelet',
      provider: 'mock',
      podSyncWorkers: 10,
      enableNodeLease: true,
      nodeLeaseDurationSeconds: DEFAULT_LEASE_DURATION_SECONDS,
      nodePingIntervalMs: DEFAULT_PING_INTERVAL_MS,
      nodeStatusUpdateIntervalMs: DEFAULT_STATUS_UPDATE_INTERVAL_MS,
      metricsAddr: ':10255',
      listenPort: 10250,
      logLevel: 'info',
      help: false,
    });
  });

  it('parses values and --no-enable-node-lease', () => {
    const flags = parseFlags([
      '--nodename',
      'vk-1',
      '--pod-sync-workers=4',
      '--no-enable-node-lease',
      '--mock-start-latency',
      '250',
    ]);
    expect(flags).toMatchObject({
      nodename: 'vk-1',
      podSyncWorkers: 4,
      enableNodeLease: false,
      mockStartLatencyMs: 250,
    });
  });

  it('rejects bad values naming the flag', () => {
    expect(() => parseFlags(['--pod-sync-workers', '0'])).toThrow(
      expect.objectContaining({ field: '--pod-sync-workers' }),
    );
    expect(() => parseFlags(['--provider', 'aws'])).toThrow(
      expect.objectContaining({ field: '--provider' }),
    );
    expect(() => parseFlags(['--mock-create-failure-rate', '2'])).toThrow(
      expect.objectContaining({ field: '--mock-create-failure-rate' }),
    );
    expect(() => parseFlags(['--bogus'])).toThrow(expect.objectContaining({ field: 'flags' }));
  });

  it('words flag errors as the flag table does', () => {
    expect(() => parseFlags(['--provider', 'aws'])).toThrow(
      'invalid --provider: must be one of mock, process, got "aws"',
    );
    expect(() => parseFlags(['--mock-create-failure-rate', '2'])).toThrow(
      'invalid --mock-create-failure-rate: must be a number >= 0 and <= 1, got "2"',
    );
    expect(() => parseFlags(['--kube-api-qps', 'fast'])).toThrow(
      'invalid --kube-api-qps: must be a number >= 1, got "fast"',
    );
    expect(() => parseFlags(['--log-level', 'loud'])).toThrow(
      'invalid --log-level: must be one of trace, debug, info, warn, error, fatal, got "loud"',
    );
  });
});
