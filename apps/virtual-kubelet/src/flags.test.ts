import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CDI_DEFAULT_SPEC_DIRS } from '@ctrlkit/dra-kubeletplugin';
import {
  DEFAULT_LEASE_DURATION_SECONDS,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_STATUS_UPDATE_INTERVAL_MS,
} from '@ctrlkit/node-controller';
import { describe, expect, it } from 'vitest';
import { CDI_SPEC_DIRS_DEFAULT, FLAGS, parseFlags, usage } from './flags.js';

/** A file with `text` in a fresh temporary directory. */
function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'vk-flags-')), name);
  writeFileSync(path, text);
  return path;
}

describe('flags', () => {
  it('--cdi-spec-dirs defaults to the CDI library’s spec directories', () => {
    expect(CDI_SPEC_DIRS_DEFAULT).toEqual(CDI_DEFAULT_SPEC_DIRS);
    expect(FLAGS['cdi-spec-dirs'].default).toBe('/etc/cdi,/var/run/cdi');
  });

  it('--help lists every flag with its non-zero default, in the one flag-table format', () => {
    const text = usage();
    for (const [name, spec] of Object.entries(FLAGS)) {
      expect(text).toContain(`\n  --${name}`);
      if (spec.type === 'duration') continue; // shown as Go prints it, checked below
      const shown =
        spec.default === undefined ||
        spec.default === '' ||
        spec.default === 0 ||
        spec.default === false
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
  --insecure-skip-tls-verify
        don't verify the apiserver's certificate (overrides the kubeconfig; insecure: for testing only)
  --kube-api-content-type string
        the wire format asked of the apiserver for built-in types: application/vnd.kubernetes.protobuf or application/json (custom resources are JSON either way) (default "application/vnd.kubernetes.protobuf")
  --nodename string
        name of the virtual Node (default "virtual-kubelet")
  --provider string
        provider that runs the pods: mock, or process (each container a local child process) (default "mock")
  --provider-config string
        provider configuration file (JSON or YAML), as upstream's mock: {"<nodename>": {"cpu": "20", "memory": "100Gi", "pods": "20", "others": {"<resource>": "<quantity>"}, "providerID": "<id>"}}; unknown keys are logged and ignored
  --os string
        the node's operating system: Linux, Windows or Darwin (label kubernetes.io/os) (default "Linux")
  --cluster-domain string
        deprecated, no effect: upstream only hands it to its provider, and neither the mock nor the process provider has pod DNS to put it in (a warning is logged when given)
  --taint string
        the node taint's key (env VKUBELET_TAINT_KEY) (default "virtual-kubelet.io/provider")
  --taint-value string
        the node taint's value; when empty: the provider's name (env VKUBELET_TAINT_VALUE)
  --taint-effect string
        the node taint's effect: NoSchedule, NoExecute or PreferNoSchedule (env VKUBELET_TAINT_EFFECT) (default "NoSchedule")
  --disable-taint
        register the node without a taint
  --pod-sync-workers int
        workers per pod queue (default 10)
  --full-resync-period duration
        how often the pod, ConfigMap, Secret and Service informers resync (0: never) (default 1m0s)
  --startup-timeout duration
        when set: wait this long for the informers and the pod controller to be ready, then register the node, else exit 1 (0: wait forever)
  --enable-node-lease
        renew a Lease in kube-node-lease (--no-enable-node-lease to turn off) (default true)
  --node-lease-duration-seconds int
        node lease duration in seconds; renewed every 25% (default 40)
  --node-ping-interval duration
        time between provider pings (and status updates without a lease); plain numbers are ms (default 10s)
  --node-ping-timeout duration
        time a provider ping (mock: at once unless --mock-ping-latency; process: starting a child process) may take before it counts as failed: a failed first ping stops the program, a later one stops status updates and lease renewals, so the cluster marks the node NotReady; when unset: no limit
  --node-status-update-interval duration
        time between node status updates when the lease is on; plain numbers are ms (default 1m0s)
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
  --mock-start-latency duration
        mock provider: time before a created pod runs; plain numbers are ms
  --mock-ping-latency duration
        mock provider: time each node ping takes (longer than --node-ping-timeout: every ping fails, the node is not kept alive); plain numbers are ms
  --mock-create-failure-rate float
        mock provider: fraction (0..1) of pod creations that fail
  --mock-hang-rate float
        mock provider: fraction (0..1) of pod creations that never return (until --provider-timeout abandons them)
  --plugins-registry-dir string
        directory watched for DRA kubelet plugins' registration sockets, as the kubelet's (created when missing) (default "/var/lib/kubelet/plugins_registry")
  --cdi-spec-dirs string
        comma-separated CDI spec directories, lowest priority first: the process provider resolves the CDI devices of DRA claims there (default "/etc/cdi,/var/run/cdi")
  --provider-timeout duration
        time each provider call of the pod sync may take before it is abandoned and the pod marked ProviderFailed (retried); when unset: no limit
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
      pluginsRegistryDir: '/var/lib/kubelet/plugins_registry',
      cdiSpecDirs: ['/etc/cdi', '/var/run/cdi'],
    });
    expect(parseFlags(['--cdi-spec-dirs=/a, /b'], {}).cdiSpecDirs).toEqual(['/a', '/b']);
  });

  it("defaults the upstream CLI's flags as virtual-kubelet does", () => {
    expect(parseFlags([], {})).toMatchObject({
      providerConfig: undefined,
      operatingSystem: 'Linux',
      clusterDomain: undefined,
      taint: { key: 'virtual-kubelet.io/provider', value: 'mock', effect: 'NoSchedule' },
      fullResyncPeriodMs: 60_000,
      startupTimeoutMs: 0,
      nodePingTimeoutMs: undefined,
      providerTimeoutMs: undefined,
      mockHangRate: 0,
    });
    expect(parseFlags(['--provider=process'], {}).taint?.value).toBe('process');
  });

  it('takes Go durations for every duration flag, and plain ms as before', () => {
    const flags = parseFlags(
      [
        '--node-ping-interval=30s',
        '--node-status-update-interval=1m30s',
        '--node-ping-timeout=500ms',
        '--full-resync-period=2m',
        '--startup-timeout=1m',
        '--mock-start-latency=1.5s',
        '--provider-timeout=2s',
      ],
      {},
    );
    expect(flags).toMatchObject({
      nodePingIntervalMs: 30_000,
      nodeStatusUpdateIntervalMs: 90_000,
      nodePingTimeoutMs: 500,
      fullResyncPeriodMs: 120_000,
      startupTimeoutMs: 60_000,
      mockStartLatencyMs: 1500,
      providerTimeoutMs: 2000,
    });
    expect(
      parseFlags(['--node-ping-interval', '2500', '--full-resync-period=0'], {}),
    ).toMatchObject({ nodePingIntervalMs: 2500, fullResyncPeriodMs: 0 });
  });

  it('rejects malformed durations naming the flag', () => {
    for (const [argv, field] of [
      [['--node-ping-interval=10x'], '--node-ping-interval'],
      [['--node-ping-interval=0s'], '--node-ping-interval'],
      [['--node-ping-timeout=0'], '--node-ping-timeout'],
      [['--provider-timeout=0'], '--provider-timeout'],
      [['--cdi-spec-dirs=/etc/cdi,,/x'], '--cdi-spec-dirs'],
      [['--plugins-registry-dir='], '--plugins-registry-dir'],
      [['--full-resync-period=-1m'], '--full-resync-period'],
      [['--startup-timeout=soon'], '--startup-timeout'],
      [['--node-status-update-interval=1 m'], '--node-status-update-interval'],
    ] as const) {
      expect(() => parseFlags([...argv], {})).toThrow(expect.objectContaining({ field }));
    }
    expect(() => parseFlags(['--startup-timeout=soon'], {})).toThrow(
      'invalid --startup-timeout: must be a duration (e.g. 30s, 1m30s, 500ms, or ms) >= 0s, got "soon"',
    );
  });

  it('takes the taint from VKUBELET_TAINT_KEY, VKUBELET_TAINT_VALUE and VKUBELET_TAINT_EFFECT; --disable-taint drops it', () => {
    const env = {
      VKUBELET_TAINT_KEY: 'example.com/virtual',
      VKUBELET_TAINT_VALUE: 'edge',
      VKUBELET_TAINT_EFFECT: 'NoExecute',
    };
    expect(parseFlags([], env).taint).toEqual({
      key: 'example.com/virtual',
      value: 'edge',
      effect: 'NoExecute',
    });
    expect(parseFlags(['--disable-taint'], env).taint).toBeUndefined();
    expect(() => parseFlags([], { VKUBELET_TAINT_KEY: 'bad key' })).toThrow(
      expect.objectContaining({ field: '--taint' }),
    );
    expect(() => parseFlags([], { VKUBELET_TAINT_VALUE: 'no/slash' })).toThrow(
      expect.objectContaining({ field: '--taint-value' }),
    );
  });

  it('takes each taint setting from its flag, else its VKUBELET_TAINT_* variable, else the default', () => {
    const env = {
      VKUBELET_TAINT_KEY: 'example.com/env',
      VKUBELET_TAINT_VALUE: 'from-env',
      VKUBELET_TAINT_EFFECT: 'NoExecute',
    };
    const flags = [
      '--taint=example.com/flag',
      '--taint-value=from-flag',
      '--taint-effect=PreferNoSchedule',
    ];
    expect(parseFlags(flags, env).taint).toEqual({
      key: 'example.com/flag',
      value: 'from-flag',
      effect: 'PreferNoSchedule',
    });
    expect(parseFlags(['--taint-value=from-flag'], env).taint).toEqual({
      key: 'example.com/env',
      value: 'from-flag',
      effect: 'NoExecute',
    });
    expect(parseFlags(['--provider=process'], {}).taint).toEqual({
      key: 'virtual-kubelet.io/provider',
      value: 'process',
      effect: 'NoSchedule',
    });
  });

  it('rejects a VKUBELET_TAINT_EFFECT that is no effect, naming the variable', () => {
    expect(() => parseFlags([], { VKUBELET_TAINT_EFFECT: 'Sometimes' })).toThrow(
      'invalid VKUBELET_TAINT_EFFECT: taint effect "Sometimes" is not supported: must be one of NoSchedule, NoExecute, PreferNoSchedule',
    );
    // the flag overrides the variable, and is checked itself
    expect(
      parseFlags(['--taint-effect=NoExecute'], { VKUBELET_TAINT_EFFECT: 'Sometimes' }).taint
        ?.effect,
    ).toBe('NoExecute');
    expect(() => parseFlags(['--taint-effect', 'Always'], {})).toThrow(
      'invalid --taint-effect: must be one of NoSchedule, NoExecute, PreferNoSchedule, got "Always"',
    );
  });

  it('checks --os, and accepts --cluster-domain (no effect) for upstream command lines', () => {
    expect(parseFlags(['--os=Windows', '--cluster-domain=corp.example'], {})).toMatchObject({
      operatingSystem: 'Windows',
      clusterDomain: 'corp.example',
    });
    expect(() => parseFlags(['--os=linux'], {})).toThrow(
      'invalid --os: must be one of Linux, Windows, Darwin, got "linux"',
    );
  });

  it("reads --provider-config as upstream's mock: JSON or YAML keyed by node name", () => {
    const json = tempFile(
      'config.json',
      JSON.stringify({ 'vk-1': { cpu: '4', memory: '8Gi', pods: '50' }, other: { cpu: '1' } }),
    );
    const capacity = (nodename: string, path: string) =>
      parseFlags([`--nodename=${nodename}`, `--provider-config=${path}`], {}).providerConfig
        ?.capacity;
    expect(capacity('vk-1', json)).toEqual({ cpu: '4', memory: '8Gi', pods: '50' });
    // missing keys, and a node without an entry, get the defaults
    expect(capacity('other', json)).toEqual({ cpu: '1', memory: '100Gi', pods: '20' });
    expect(capacity('vk-9', json)).toEqual({ cpu: '20', memory: '100Gi', pods: '20' });
    const yaml = tempFile('config.yaml', 'vk-1:\n  cpu: 2500m\n  memory: 512Mi\n  pods: 8\n');
    expect(capacity('vk-1', yaml)).toEqual({ cpu: '2500m', memory: '512Mi', pods: '8' });
  });

  it("accepts upstream mock's others and providerID, and returns unknown keys instead of refusing them", () => {
    const path = tempFile(
      'mock.json',
      JSON.stringify({
        'vk-1': {
          cpu: '2',
          others: { 'nvidia.com/gpu': '4', 'example.com/fpga': '1' },
          providerID: 'mock://vk-1',
          Pods: '30',
          gpus: '2',
          labels: { a: 'b' },
        },
      }),
    );
    expect(parseFlags(['--nodename=vk-1', `--provider-config=${path}`], {}).providerConfig).toEqual(
      {
        capacity: {
          cpu: '2',
          memory: '100Gi',
          pods: '30',
          'nvidia.com/gpu': '4',
          'example.com/fpga': '1',
        },
        providerID: 'mock://vk-1',
        unknownKeys: ['gpus', 'labels'],
      },
    );
  });

  it('rejects a --provider-config it cannot use, naming the flag', () => {
    const bad = (text: string): void => {
      const path = tempFile('bad.json', text);
      expect(() => parseFlags(['--nodename=vk-1', `--provider-config=${path}`], {})).toThrow(
        expect.objectContaining({ field: '--provider-config' }),
      );
    };
    bad('[1, 2]');
    bad('{"vk-1": {"cpu": "lots"}}');
    bad('{"vk-1": {"others": {"nvidia.com/gpu": "many"}}}');
    bad('{"vk-1": {"others": ["gpu"]}}');
    bad('{"vk-1": {"providerID": 7}}');
    bad('{"vk-1": "4"}');
    bad('{unclosed');
    expect(() => parseFlags(['--provider-config=/nonexistent/vk.json'], {})).toThrow(
      expect.objectContaining({ field: '--provider-config' }),
    );
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
