//! Command-line flags of ctrlkit-dra-example-kubeletplugin.

import { InvalidArgumentError } from '@ctrlkit/core';
import {
  CDI_DYNAMIC_DIR,
  KUBELET_PLUGINS_DIR,
  KUBELET_REGISTRY_DIR,
} from '@ctrlkit/dra-kubeletplugin';
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
import { DEFAULT_NUM_DEVICES } from '../devices.js';

/** The parsed flags of the kubelet plugin. */
export interface KubeletPluginFlags {
  /** `--kubeconfig`; empty: `$KUBECONFIG`, in-cluster, then `~/.kube/config`. */
  kubeconfig: string;
  /** `--insecure-skip-tls-verify`: do not verify the apiserver's certificate. */
  insecureSkipTlsVerify: boolean;
  /** `--kube-api-content-type`: the wire format asked for built-in types. */
  kubeApiContentType: ContentType;
  /** `--node-name` (or `NODE_NAME`): required. */
  nodeName: string;
  /** `--num-devices`: simulated GPUs, default 8, at most 128. */
  numDevices: number;
  /** `--cdi-root`: default `/var/run/cdi`. */
  cdiRoot: string;
  /** `--kubelet-registrar-directory-path`: default `/var/lib/kubelet/plugins_registry`. */
  kubeletRegistrarDirectoryPath: string;
  /** `--kubelet-plugins-directory-path`: default `/var/lib/kubelet/plugins`. */
  kubeletPluginsDirectoryPath: string;
  /** `--metrics-bind-address`: default `:8080`, `0` for none. */
  metricsBindAddress: string;
  /** `--health-probe-bind-address`: default `:8081`, `0` for none. */
  healthProbeBindAddress: string;
  /** `--log-level`: default `info`. */
  logLevel: LogLevel;
  /** `--help`: print the usage and exit. */
  help: boolean;
}

const FLAGS = {
  kubeconfig: {
    type: 'string',
    default: '',
    help: 'kubeconfig file; when unset: $KUBECONFIG, in-cluster, then ~/.kube/config',
  },
  'insecure-skip-tls-verify': INSECURE_SKIP_TLS_VERIFY_FLAG,
  'kube-api-content-type': KUBE_API_CONTENT_TYPE_FLAG,
  'node-name': {
    type: 'string',
    env: 'NODE_NAME',
    default: '',
    help: 'the node this plugin runs on (required)',
  },
  'num-devices': {
    type: 'integer',
    env: 'NUM_DEVICES',
    default: DEFAULT_NUM_DEVICES,
    min: 0,
    help: 'simulated GPUs on the node',
  },
  'cdi-root': {
    type: 'string',
    env: 'CDI_ROOT',
    default: CDI_DYNAMIC_DIR,
    help: 'directory the CDI spec files are written to',
  },
  'kubelet-registrar-directory-path': {
    type: 'string',
    env: 'KUBELET_REGISTRAR_DIRECTORY_PATH',
    default: KUBELET_REGISTRY_DIR,
    help: "the kubelet's plugin registration directory (must exist)",
  },
  'kubelet-plugins-directory-path': {
    type: 'string',
    env: 'KUBELET_PLUGINS_DIRECTORY_PATH',
    default: KUBELET_PLUGINS_DIR,
    help: 'the DRA socket and the checkpoint go in <this>/gpu.example.com',
  },
  'metrics-bind-address': {
    type: 'string',
    default: ':8080',
    help: "address of /metrics; '0' turns it off",
  },
  'health-probe-bind-address': {
    type: 'string',
    default: ':8081',
    help: "address of /healthz and /readyz; '0' turns it off",
  },
  'log-level': LOG_LEVEL_FLAG,
  help: HELP_FLAG,
} satisfies FlagTable;

/** The `--help` text: every flag with its default. */
export function kubeletPluginUsage(): string {
  return flagUsage(FLAGS, {
    header: [
      'Usage: ctrlkit-dra-example-kubeletplugin [flags]',
      '',
      "The example driver's kubelet plugin (driver gpu.example.com): publishes the node's",
      'simulated GPUs and prepares claims for the kubelet (CDI specs, a checkpoint).',
    ],
  });
}

/**
 * Parses `argv` (without node and script), falling back to `env` and the defaults; throws
 * InvalidArgumentError naming a bad flag.
 */
export function parseKubeletPluginFlags(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): KubeletPluginFlags {
  const values = parseFlagTable(FLAGS, argv, env);
  const flags: KubeletPluginFlags = {
    kubeconfig: values.kubeconfig,
    insecureSkipTlsVerify: values['insecure-skip-tls-verify'],
    kubeApiContentType: values['kube-api-content-type'],
    nodeName: values['node-name'],
    numDevices: values['num-devices'],
    cdiRoot: values['cdi-root'],
    kubeletRegistrarDirectoryPath: values['kubelet-registrar-directory-path'],
    kubeletPluginsDirectoryPath: values['kubelet-plugins-directory-path'],
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    logLevel: values['log-level'],
    help: values.help,
  };
  if (flags.help) return flags;
  if (flags.nodeName === '')
    throw new InvalidArgumentError('--node-name', 'is required (or set NODE_NAME)');
  if (flags.numDevices > 128)
    throw new InvalidArgumentError('--num-devices', 'at most 128 GPUs fit one ResourceSlice');
  for (const [flag, value] of [
    ['--cdi-root', flags.cdiRoot],
    ['--kubelet-registrar-directory-path', flags.kubeletRegistrarDirectoryPath],
    ['--kubelet-plugins-directory-path', flags.kubeletPluginsDirectoryPath],
  ] as const) {
    if (!value.startsWith('/'))
      throw new InvalidArgumentError(
        flag,
        `must be an absolute path, got ${JSON.stringify(value)}`,
      );
  }
  return flags;
}
