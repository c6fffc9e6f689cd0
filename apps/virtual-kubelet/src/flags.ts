//! The command line of ctrlkit-virtual-kubelet: every flag with its default and help.

import { hostname } from 'node:os';
import { InvalidArgumentError } from '@ctrlkit/core';
import {
  DEFAULT_LEASE_DURATION_SECONDS,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_STATUS_UPDATE_INTERVAL_MS,
} from '@ctrlkit/node-controller';
import { type FlagTable, flagUsage, parseFlagTable } from '@ctrlkit/runtime/cli';

/** The providers `--provider` accepts. */
export const PROVIDERS = ['mock', 'process'] as const;

/** Log levels of pino that `--log-level` accepts. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** The parsed flags. */
export interface Flags {
  kubeconfig: string | undefined;
  nodename: string;
  provider: (typeof PROVIDERS)[number];
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
  logLevel: (typeof LOG_LEVELS)[number];
  help: boolean;
}

/** Every flag: name, default (shown by --help), help text. */
export const FLAGS = {
  kubeconfig: {
    type: 'string',
    default: undefined,
    help: 'kubeconfig file; when unset: $KUBECONFIG, in-cluster, then ~/.kube/config',
  },
  nodename: { type: 'string', default: 'virtual-kubelet', help: 'name of the virtual Node' },
  provider: {
    type: 'string',
    default: 'mock',
    choices: PROVIDERS,
    help: 'provider that runs the pods: mock, or process (each container a local child process)',
  },
  'pod-sync-workers': { type: 'integer', default: 10, min: 1, help: 'workers per pod queue' },
  'enable-node-lease': {
    type: 'boolean',
    default: true,
    help: 'renew a Lease in kube-node-lease (--no-enable-node-lease to turn off)',
  },
  'node-lease-duration-seconds': {
    type: 'integer',
    default: DEFAULT_LEASE_DURATION_SECONDS,
    min: 1,
    help: 'node lease duration in seconds; renewed every 25%',
  },
  'node-ping-interval': {
    type: 'integer',
    default: DEFAULT_PING_INTERVAL_MS,
    min: 1,
    help: 'ms between provider pings (and status updates without a lease)',
  },
  'node-status-update-interval': {
    type: 'integer',
    default: DEFAULT_STATUS_UPDATE_INTERVAL_MS,
    min: 1,
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
    help: "the node's InternalIP; when unset: $VKUBELET_POD_IP, then the first non-loopback IPv4 address",
  },
  'listen-port': {
    type: 'integer',
    default: 10250,
    min: 1,
    help: "the node's kubelet port (daemonEndpoints.kubeletEndpoint.Port)",
  },
  'tls-cert-file': {
    type: 'string',
    default: undefined,
    help: 'serving certificate (PEM) of the kubelet API; when unset: a self-signed one',
  },
  'tls-key-file': {
    type: 'string',
    default: undefined,
    help: 'private key (PEM) of --tls-cert-file',
  },
  'mock-start-latency': {
    type: 'number',
    default: 0,
    min: 0,
    help: 'mock provider: ms before a created pod runs',
  },
  'mock-create-failure-rate': {
    type: 'number',
    default: 0,
    min: 0,
    max: 1,
    help: 'mock provider: fraction (0..1) of pod creations that fail',
  },
  'kube-api-qps': {
    type: 'number',
    default: 50,
    min: 1,
    help: 'client-side requests per second to the apiserver',
  },
  'kube-api-burst': {
    type: 'integer',
    default: 100,
    min: 1,
    help: 'client-side burst of requests to the apiserver',
  },
  'log-level': {
    type: 'string',
    default: 'info',
    choices: LOG_LEVELS,
    help: 'trace, debug, info, warn, error or fatal (JSON lines on stdout)',
  },
  help: { type: 'boolean', default: false, help: 'print this help and exit' },
} satisfies FlagTable;

/** The text of `--help`. */
export function usage(): string {
  return flagUsage(FLAGS, {
    header: [
      'Usage: ctrlkit-virtual-kubelet [flags]',
      '',
      'A virtual Kubernetes node whose pods run on a provider.',
    ],
  });
}

/** Parses `argv` (without node and script); throws InvalidArgumentError naming a bad flag. */
export function parseFlags(argv: string[]): Flags {
  const values = parseFlagTable(FLAGS, argv);
  const nodename = values.nodename;
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
    kubeconfig: values.kubeconfig,
    nodename,
    provider: values.provider,
    podSyncWorkers: values['pod-sync-workers'],
    enableNodeLease: values['enable-node-lease'],
    nodeLeaseDurationSeconds: values['node-lease-duration-seconds'],
    nodePingIntervalMs: values['node-ping-interval'],
    nodeStatusUpdateIntervalMs: values['node-status-update-interval'],
    metricsAddr: values['metrics-addr'],
    healthzAddr: values['healthz-addr'],
    internalIP: values['internal-ip'],
    listenPort: values['listen-port'],
    tlsCertFile: values['tls-cert-file'],
    tlsKeyFile: values['tls-key-file'],
    mockStartLatencyMs: values['mock-start-latency'],
    mockCreateFailureRate: values['mock-create-failure-rate'],
    kubeApiQps: values['kube-api-qps'],
    kubeApiBurst: values['kube-api-burst'],
    logLevel: values['log-level'],
    help: values.help,
  };
}
