//! The command line of ctrlkit-virtual-kubelet: every flag with its default and help.

import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import {
  DEFAULT_LEASE_DURATION_SECONDS,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_STATUS_UPDATE_INTERVAL_MS,
} from '@ctrlkit/node-controller';
import { InvalidArgumentError } from '@ctrlkit/workqueue';

/** The parsed flags. */
export interface Flags {
  kubeconfig: string | undefined;
  nodename: string;
  provider: 'mock' | 'process';
  podSyncWorkers: number;
  enableNodeLease: boolean;
  nodeLeaseDurationSeconds: number;
  nodePingIntervalMs: number;
  nodeStatusUpdateIntervalMs: number;
  metricsAddr: string;
  healthzAddr: string;
  internalIP: string | undefined;
  listenPort: number;
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  mockStartLatencyMs: number;
  mockCreateFailureRate: number;
  kubeApiQps: number;
  kubeApiBurst: number;
  logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  help: boolean;
}

interface FlagSpec {
  type: 'string' | 'boolean';
  default: string | boolean | undefined;
  help: string;
}

/** Every flag: name, default (shown by --help), help text. */
export const FLAGS: Record<string, FlagSpec> = {
  kubeconfig: {
    type: 'string',
    default: undefined,
    help: 'kubeconfig file; default: $KUBECONFIG, in-cluster, then ~/.kube/config',
  },
  nodename: { type: 'string', default: 'virtual-kubelet', help: 'name of the virtual Node' },
  provider: {
    type: 'string',
    default: 'mock',
    help: 'provider that runs the pods: mock, or process (each container a local child process)',
  },
  'pod-sync-workers': { type: 'string', default: '10', help: 'workers per pod queue' },
  'enable-node-lease': {
    type: 'boolean',
    default: true,
    help: 'renew a Lease in kube-node-lease (--no-enable-node-lease to turn off)',
  },
  'node-lease-duration-seconds': {
    type: 'string',
    default: String(DEFAULT_LEASE_DURATION_SECONDS),
    help: 'node lease duration in seconds; renewed every 25%',
  },
  'node-ping-interval': {
    type: 'string',
    default: String(DEFAULT_PING_INTERVAL_MS),
    help: 'ms between provider pings (and status updates without a lease)',
  },
  'node-status-update-interval': {
    type: 'string',
    default: String(DEFAULT_STATUS_UPDATE_INTERVAL_MS),
    help: 'ms between node status updates when the lease is on',
  },
  'metrics-addr': {
    type: 'string',
    default: ':10255',
    help: "address of /metrics (Prometheus); '0' turns it off",
  },
  'healthz-addr': {
    type: 'string',
    default: ':8081',
    help: "address of /healthz and /readyz; '0' turns it off",
  },
  'internal-ip': {
    type: 'string',
    default: undefined,
    help: "the node's InternalIP; default: the first non-loopback IPv4 address, $VKUBELET_POD_IP",
  },
  'listen-port': {
    type: 'string',
    default: '10250',
    help: "the node's kubelet port (daemonEndpoints.kubeletEndpoint.Port)",
  },
  'tls-cert-file': {
    type: 'string',
    default: undefined,
    help: 'serving certificate (PEM) of the kubelet API; default: a self-signed one',
  },
  'tls-key-file': {
    type: 'string',
    default: undefined,
    help: 'private key (PEM) of --tls-cert-file',
  },
  'mock-start-latency': {
    type: 'string',
    default: '0',
    help: 'mock provider: ms before a created pod runs',
  },
  'mock-create-failure-rate': {
    type: 'string',
    default: '0',
    help: 'mock provider: fraction (0..1) of pod creations that fail',
  },
  'kube-api-qps': {
    type: 'string',
    default: '50',
    help: 'client-side requests per second to the apiserver',
  },
  'kube-api-burst': {
    type: 'string',
    default: '100',
    help: 'client-side burst of requests to the apiserver',
  },
  'log-level': {
    type: 'string',
    default: 'info',
    help: 'trace, debug, info, warn, error or fatal (JSON lines on stdout)',
  },
  help: { type: 'boolean', default: false, help: 'print this help and exit' },
};

/** The text of `--help`. */
export function usage(): string {
  const lines = [
    'Usage: ctrlkit-virtual-kubelet [flags]',
    '',
    'A virtual Kubernetes node whose pods run on a provider.',
    '',
    'Flags:',
  ];
  for (const [name, spec] of Object.entries(FLAGS)) {
    const value = spec.type === 'boolean' ? '' : ' <value>';
    const shown = spec.default === undefined ? '(none)' : String(spec.default);
    const flag = `  --${name}${value}`.padEnd(44);
    lines.push(`${flag}${spec.help} (default ${shown})`);
  }
  return `${lines.join('\n')}\n`;
}

/** Parses `argv` (without node and script); throws InvalidArgumentError naming a bad flag. */
export function parseFlags(argv: string[]): Flags {
  const options = Object.fromEntries(
    Object.entries(FLAGS).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.default === undefined ? {} : { default: spec.default }) },
    ]),
  ) as NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>;
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options,
      allowPositionals: false,
      allowNegative: true,
      strict: true,
    }).values as never;
  } catch (error) {
    throw new InvalidArgumentError('flags', (error as Error).message);
  }
  const int = (name: string, min: number): number => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(
        `--${name}`,
        `must be an integer >= ${min}, got ${values[name]}`,
      );
    return n;
  };
  const num = (name: string, min: number, max = Infinity): number => {
    const n = Number(values[name]);
    if (!(n >= min && n <= max))
      throw new InvalidArgumentError(
        `--${name}`,
        `must be a number in [${min}, ${max}], got ${values[name]}`,
      );
    return n;
  };
  const provider = values.provider as string;
  if (provider !== 'mock' && provider !== 'process')
    throw new InvalidArgumentError(
      '--provider',
      `unknown provider "${provider}" (known: mock, process)`,
    );
  const logLevel = values['log-level'] as string;
  if (!['trace', 'debug', 'info', 'warn', 'error', 'fatal'].includes(logLevel)) {
    throw new InvalidArgumentError('--log-level', `unknown level "${logLevel}"`);
  }
  const nodename = values.nodename as string;
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(nodename)) {
    throw new InvalidArgumentError(
      '--nodename',
      `"${nodename}" is not a valid node name (hostname: ${hostname()})`,
    );
  }
  if ((values['tls-cert-file'] === undefined) !== (values['tls-key-file'] === undefined)) {
    throw new InvalidArgumentError(
      '--tls-key-file',
      '--tls-cert-file and --tls-key-file go together',
    );
  }
  return {
    kubeconfig: values.kubeconfig as string | undefined,
    nodename,
    provider: provider as Flags['provider'],
    podSyncWorkers: int('pod-sync-workers', 1),
    enableNodeLease: values['enable-node-lease'] as boolean,
    nodeLeaseDurationSeconds: int('node-lease-duration-seconds', 1),
    nodePingIntervalMs: int('node-ping-interval', 1),
    nodeStatusUpdateIntervalMs: int('node-status-update-interval', 1),
    metricsAddr: values['metrics-addr'] as string,
    healthzAddr: values['healthz-addr'] as string,
    internalIP: values['internal-ip'] as string | undefined,
    listenPort: int('listen-port', 1),
    tlsCertFile: values['tls-cert-file'] as string | undefined,
    tlsKeyFile: values['tls-key-file'] as string | undefined,
    mockStartLatencyMs: num('mock-start-latency', 0),
    mockCreateFailureRate: num('mock-create-failure-rate', 0, 1),
    kubeApiQps: num('kube-api-qps', 1),
    kubeApiBurst: int('kube-api-burst', 1),
    logLevel: logLevel as Flags['logLevel'],
    help: values.help as boolean,
  };
}
