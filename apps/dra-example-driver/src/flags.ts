//! Command-line flags of ctrlkit-dra-example-driver.

import { InvalidArgumentError } from '@ctrlkit/core';
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
import { DEFAULT_NUM_DEVICES } from './devices.js';

/** The parsed flags. */
export interface Flags {
  kubeconfig: string;
  /** `--insecure-skip-tls-verify`: do not verify the apiserver's certificate. */
  insecureSkipTlsVerify: boolean;
  /** `--kube-api-content-type`: the wire format asked for built-in types. */
  kubeApiContentType: ContentType;
  nodeName: string;
  numDevices: number;
  partitions: number;
  metricsBindAddress: string;
  healthProbeBindAddress: string;
  logLevel: LogLevel;
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
    help: 'the node whose GPUs are published (required)',
  },
  'num-devices': {
    type: 'integer',
    env: 'NUM_DEVICES',
    default: DEFAULT_NUM_DEVICES,
    min: 0,
    help: 'simulated GPUs on the node',
  },
  partitions: {
    type: 'integer',
    env: 'PARTITIONS',
    default: 0,
    min: 0,
    help: 'partitions per GPU, published with shared counters; 0 for whole GPUs only',
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
export function usage(): string {
  return flagUsage(FLAGS, {
    header: [
      'Usage: ctrlkit-dra-example-driver [flags]',
      '',
      'Publishes simulated GPUs of one node as DRA ResourceSlices (driver gpu.example.com).',
    ],
  });
}

/**
 * Parses `argv` (without node and script), falling back to `env` and the defaults; throws
 * InvalidArgumentError naming a bad flag.
 */
export function parseFlags(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Flags {
  const values = parseFlagTable(FLAGS, argv, env);
  const flags: Flags = {
    kubeconfig: values.kubeconfig,
    insecureSkipTlsVerify: values['insecure-skip-tls-verify'],
    kubeApiContentType: values['kube-api-content-type'],
    nodeName: values['node-name'],
    numDevices: values['num-devices'],
    partitions: values.partitions,
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
  if (flags.partitions > 0 && flags.numDevices * (flags.partitions + 1) > 64) {
    throw new InvalidArgumentError(
      '--partitions',
      'num-devices × (partitions + 1) must be at most 64 (devices consuming counters per slice)',
    );
  }
  return flags;
}
