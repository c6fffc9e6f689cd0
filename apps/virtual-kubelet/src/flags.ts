//! The command line of ctrlkit-virtual-kubelet: every flag with its default and help.

import { hostname } from 'node:os';
import { InvalidArgumentError } from '@ctrlkit/core';
import {
  DEFAULT_LEASE_DURATION_SECONDS,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_STATUS_UPDATE_INTERVAL_MS,
} from '@ctrlkit/node-controller';
import { DEFAULT_PLUGINS_REGISTRY_DIR } from '@ctrlkit/node-controller/dra';
import {
  type FlagTable,
  flagUsage,
  HELP_FLAG,
  INSECURE_SKIP_TLS_VERIFY_FLAG,
  KUBE_API_CONTENT_TYPE_FLAG,
  LOG_LEVEL_FLAG,
  type LogLevel,
  parseFlagTable,
} from '@ctrlkit/runtime/cli';
import type { ContentType } from '@ctrlkit/runtime/client';
import { type ProviderConfig, readProviderConfig } from './provider-config.js';

/** The providers `--provider` accepts. */
export const PROVIDERS = ['mock', 'process'] as const;

/** The operating systems `--os` accepts, as virtual-kubelet's CLI spells them. */
export const OPERATING_SYSTEMS = ['Linux', 'Windows', 'Darwin'] as const;

/** The effects the node taint may have (`--taint-effect`, `VKUBELET_TAINT_EFFECT`). */
export const TAINT_EFFECTS = ['NoSchedule', 'NoExecute', 'PreferNoSchedule'] as const;

/**
 * `--cdi-spec-dirs`' default: the CDI library's static and dynamic spec directories
 * (`CDI_DEFAULT_SPEC_DIRS` of @ctrlkit/dra-kubeletplugin, written out so that parsing the flags
 * does not load that package; a test keeps them equal).
 */
export const CDI_SPEC_DIRS_DEFAULT: readonly string[] = ['/etc/cdi', '/var/run/cdi'];

/** The node taint's key when neither `--taint` nor `VKUBELET_TAINT_KEY` is given, as virtual-kubelet's. */
export const DEFAULT_TAINT_KEY = 'virtual-kubelet.io/provider';

/** The node's taint (`--taint`/`VKUBELET_TAINT_KEY`, `--taint-value`/`VKUBELET_TAINT_VALUE`, `--taint-effect`/`VKUBELET_TAINT_EFFECT`). */
export interface NodeTaint {
  key: string;
  value: string;
  effect: (typeof TAINT_EFFECTS)[number];
}

/** The parsed flags. */
export interface Flags {
  kubeconfig: string | undefined;
  /** `--insecure-skip-tls-verify`: do not verify the apiserver's certificate. */
  insecureSkipTlsVerify: boolean;
  /** `--kube-api-content-type`: the wire format asked for built-in types. */
  kubeApiContentType: ContentType;
  nodename: string;
  provider: (typeof PROVIDERS)[number];
  /** `--provider-config`: that file's settings for `--nodename` (capacity, providerID, unknown keys); undefined without one. */
  providerConfig: ProviderConfig | undefined;
  operatingSystem: (typeof OPERATING_SYSTEMS)[number];
  /** `--cluster-domain` when given: accepted for upstream's command lines, with no effect (see its help). */
  clusterDomain: string | undefined;
  /** The node's taint; undefined with `--disable-taint`. */
  taint: NodeTaint | undefined;
  podSyncWorkers: number;
  fullResyncPeriodMs: number;
  startupTimeoutMs: number;
  enableNodeLease: boolean;
  nodeLeaseDurationSeconds: number;
  nodePingIntervalMs: number;
  nodePingTimeoutMs: number | undefined;
  nodeStatusUpdateIntervalMs: number;
  metricsAddr: string;
  healthzAddr: string;
  internalIP: string | undefined;
  listenPort: number;
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  mockStartLatencyMs: number;
  /** `--mock-ping-latency`: ms each mock ping takes (failure injection). */
  mockPingLatencyMs: number;
  mockCreateFailureRate: number;
  mockHangRate: number;
  providerTimeoutMs: number | undefined;
  /** `--plugins-registry-dir`: where DRA kubelet plugins register. */
  pluginsRegistryDir: string;
  /** `--cdi-spec-dirs`: CDI spec directories, lowest priority first. */
  cdiSpecDirs: string[];
  kubeApiQps: number;
  kubeApiBurst: number;
  logLevel: LogLevel;
  help: boolean;
}

/** Every flag: name, default (shown by --help), help text. */
export const FLAGS = {
  kubeconfig: {
    type: 'string',
    default: undefined,
    help: 'kubeconfig file; when unset: $KUBECONFIG, in-cluster, then ~/.kube/config',
  },
  'insecure-skip-tls-verify': INSECURE_SKIP_TLS_VERIFY_FLAG,
  'kube-api-content-type': KUBE_API_CONTENT_TYPE_FLAG,
  nodename: { type: 'string', default: 'virtual-kubelet', help: 'name of the virtual Node' },
  provider: {
    type: 'string',
    default: 'mock',
    choices: PROVIDERS,
    help: 'provider that runs the pods: mock, or process (each container a local child process)',
  },
  'provider-config': {
    type: 'string',
    default: undefined,
    help: 'provider configuration file (JSON or YAML), as upstream\'s mock: {"<nodename>": {"cpu": "20", "memory": "100Gi", "pods": "20", "others": {"<resource>": "<quantity>"}, "providerID": "<id>"}}; unknown keys are logged and ignored',
  },
  os: {
    type: 'string',
    default: 'Linux',
    choices: OPERATING_SYSTEMS,
    help: "the node's operating system: Linux, Windows or Darwin (label kubernetes.io/os)",
  },
  'cluster-domain': {
    type: 'string',
    default: undefined,
    help: 'deprecated, no effect: upstream only hands it to its provider, and neither the mock nor the process provider has pod DNS to put it in (a warning is logged when given)',
  },
  taint: {
    type: 'string',
    default: DEFAULT_TAINT_KEY,
    env: 'VKUBELET_TAINT_KEY',
    help: "the node taint's key",
  },
  'taint-value': {
    type: 'string',
    default: '',
    env: 'VKUBELET_TAINT_VALUE',
    help: "the node taint's value; when empty: the provider's name",
  },
  'taint-effect': {
    type: 'string',
    default: 'NoSchedule',
    env: 'VKUBELET_TAINT_EFFECT',
    choices: TAINT_EFFECTS,
    help: "the node taint's effect: NoSchedule, NoExecute or PreferNoSchedule",
  },
  'disable-taint': { type: 'boolean', default: false, help: 'register the node without a taint' },
  'pod-sync-workers': { type: 'integer', default: 10, min: 1, help: 'workers per pod queue' },
  'full-resync-period': {
    type: 'duration',
    default: 60_000,
    min: 0,
    help: 'how often the pod, ConfigMap, Secret and Service informers resync (0: never)',
  },
  'startup-timeout': {
    type: 'duration',
    default: 0,
    min: 0,
    help: 'when set: wait this long for the informers and the pod controller to be ready, then register the node, else exit 1 (0: wait forever)',
  },
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
    type: 'duration',
    default: DEFAULT_PING_INTERVAL_MS,
    min: 1,
    help: 'time between provider pings (and status updates without a lease); plain numbers are ms',
  },
  'node-ping-timeout': {
    type: 'duration',
    default: undefined,
    min: 1,
    help: 'time a provider ping (mock: at once unless --mock-ping-latency; process: starting a child process) may take before it counts as failed: a failed first ping stops the program, a later one stops status updates and lease renewals, so the cluster marks the node NotReady; when unset: no limit',
  },
  'node-status-update-interval': {
    type: 'duration',
    default: DEFAULT_STATUS_UPDATE_INTERVAL_MS,
    min: 1,
    help: 'time between node status updates when the lease is on; plain numbers are ms',
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
    type: 'duration',
    default: 0,
    min: 0,
    help: 'mock provider: time before a created pod runs; plain numbers are ms',
  },
  'mock-ping-latency': {
    type: 'duration',
    default: 0,
    min: 0,
    help: 'mock provider: time each node ping takes (longer than --node-ping-timeout: every ping fails, the node is not kept alive); plain numbers are ms',
  },
  'mock-create-failure-rate': {
    type: 'number',
    default: 0,
    min: 0,
    max: 1,
    help: 'mock provider: fraction (0..1) of pod creations that fail',
  },
  'mock-hang-rate': {
    type: 'number',
    default: 0,
    min: 0,
    max: 1,
    help: 'mock provider: fraction (0..1) of pod creations that never return (until --provider-timeout abandons them)',
  },
  'plugins-registry-dir': {
    type: 'string',
    default: DEFAULT_PLUGINS_REGISTRY_DIR,
    help: "directory watched for DRA kubelet plugins' registration sockets, as the kubelet's (created when missing)",
  },
  'cdi-spec-dirs': {
    type: 'string',
    default: CDI_SPEC_DIRS_DEFAULT.join(','),
    help: 'comma-separated CDI spec directories, lowest priority first: the process provider resolves the CDI devices of DRA claims there',
  },
  'provider-timeout': {
    type: 'duration',
    default: undefined,
    min: 1,
    help: 'time each provider call of the pod sync may take before it is abandoned and the pod marked ProviderFailed (retried); when unset: no limit',
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
  'log-level': LOG_LEVEL_FLAG,
  help: HELP_FLAG,
} satisfies FlagTable;

/** `value`, unless it is empty. */
function nonEmpty(flag: string, value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError(flag, 'must not be empty');
  return value;
}

/** The directories of `--cdi-spec-dirs`: comma-separated, each non-empty. */
function cdiSpecDirs(value: string): string[] {
  const dirs = value.split(',').map((d) => d.trim());
  if (dirs.some((d) => d === '')) {
    throw new InvalidArgumentError(
      '--cdi-spec-dirs',
      `"${value}" has an empty directory; give comma-separated paths`,
    );
  }
  return dirs;
}

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

/**
 * Parses `argv` (without node and script), with `VKUBELET_TAINT_KEY`, `VKUBELET_TAINT_VALUE`
 * and `VKUBELET_TAINT_EFFECT` from `env` as the taint flags' defaults (a flag wins over its
 * variable, which wins over the default),
 * and reads `--provider-config`; throws InvalidArgumentError naming a bad flag.
 */
export function parseFlags(argv: string[], env: NodeJS.ProcessEnv = process.env): Flags {
  checkEnvTaintEffect(argv, env);
  const values = parseFlagTable(FLAGS, argv, env);
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
  const clusterDomain = values['cluster-domain'];
  const configPath = values['provider-config'];
  return {
    kubeconfig: values.kubeconfig,
    insecureSkipTlsVerify: values['insecure-skip-tls-verify'],
    kubeApiContentType: values['kube-api-content-type'],
    nodename,
    provider: values.provider,
    providerConfig: configPath === undefined ? undefined : readProviderConfig(configPath, nodename),
    operatingSystem: values.os,
    clusterDomain,
    taint: values['disable-taint'] ? undefined : nodeTaint(values),
    podSyncWorkers: values['pod-sync-workers'],
    fullResyncPeriodMs: values['full-resync-period'],
    startupTimeoutMs: values['startup-timeout'],
    enableNodeLease: values['enable-node-lease'],
    nodeLeaseDurationSeconds: values['node-lease-duration-seconds'],
    nodePingIntervalMs: values['node-ping-interval'],
    nodePingTimeoutMs: values['node-ping-timeout'],
    nodeStatusUpdateIntervalMs: values['node-status-update-interval'],
    metricsAddr: values['metrics-addr'],
    healthzAddr: values['healthz-addr'],
    internalIP: values['internal-ip'],
    listenPort: values['listen-port'],
    tlsCertFile: values['tls-cert-file'],
    tlsKeyFile: values['tls-key-file'],
    mockStartLatencyMs: values['mock-start-latency'],
    mockPingLatencyMs: values['mock-ping-latency'],
    mockCreateFailureRate: values['mock-create-failure-rate'],
    mockHangRate: values['mock-hang-rate'],
    providerTimeoutMs: values['provider-timeout'],
    pluginsRegistryDir: nonEmpty('--plugins-registry-dir', values['plugins-registry-dir']),
    cdiSpecDirs: cdiSpecDirs(values['cdi-spec-dirs']),
    kubeApiQps: values['kube-api-qps'],
    kubeApiBurst: values['kube-api-burst'],
    logLevel: values['log-level'],
    help: values.help,
  };
}

/**
 * Rejects a `VKUBELET_TAINT_EFFECT` that is not an effect, naming the variable, when
 * `--taint-effect` does not override it (upstream: `taint effect "…" is not supported`).
 */
function checkEnvTaintEffect(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  const effect = env.VKUBELET_TAINT_EFFECT;
  if (effect === undefined || (TAINT_EFFECTS as readonly string[]).includes(effect)) return;
  if (argv.some((a) => a === '--taint-effect' || a.startsWith('--taint-effect='))) return;
  throw new InvalidArgumentError(
    'VKUBELET_TAINT_EFFECT',
    `taint effect ${JSON.stringify(effect)} is not supported: must be one of ${TAINT_EFFECTS.join(', ')}`,
  );
}

/** A taint key: a qualified name, `[prefix/]name`. */
const TAINT_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(?=[^/]{1,63}$)[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
/** A taint value: a label value. */
const TAINT_VALUE = /^((?=.{1,63}$)[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/** The node taint from `--taint`/`VKUBELET_TAINT_KEY`, its value (default: the provider) and effect. */
function nodeTaint(values: {
  taint: string;
  'taint-value': string;
  'taint-effect': (typeof TAINT_EFFECTS)[number];
  provider: string;
}): NodeTaint {
  const key = values.taint;
  if (!TAINT_KEY.test(key)) {
    throw new InvalidArgumentError(
      '--taint',
      `"${key}" is not a valid taint key (VKUBELET_TAINT_KEY)`,
    );
  }
  const value = values['taint-value'] === '' ? values.provider : values['taint-value'];
  if (!TAINT_VALUE.test(value)) {
    throw new InvalidArgumentError(
      '--taint-value',
      `"${value}" is not a valid taint value (VKUBELET_TAINT_VALUE)`,
    );
  }
  return { key, value, effect: values['taint-effect'] };
}
