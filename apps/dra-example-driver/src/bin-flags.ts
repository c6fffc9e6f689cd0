//! The flags the app's three bins share, spelled, ordered and shown the same in each.

import { InvalidArgumentError } from '@ctrlkit/core';
import {
  type FlagSpec,
  type FlagTable,
  type FlagValues,
  HELP_FLAG,
  INSECURE_SKIP_TLS_VERIFY_FLAG,
  KUBE_API_CONTENT_TYPE_FLAG,
  LOG_LEVEL_FLAG,
  type LogLevel,
} from '@ctrlkit/runtime/cli';
import type { ContentType } from '@ctrlkit/runtime/client';
import { DEFAULT_NUM_DEVICES } from './devices.js';

/** `--kubeconfig`: default empty, then `$KUBECONFIG`, in-cluster, then `~/.kube/config`. */
export const KUBECONFIG_FLAG = {
  type: 'string',
  default: '',
  help: 'kubeconfig file; when unset: $KUBECONFIG, in-cluster, then ~/.kube/config',
} as const satisfies FlagSpec<'string'>;

/** `--kube-api-qps`'s default: 5 requests per second, upstream's (client-go's default). */
export const DEFAULT_KUBE_API_QPS = 5;
/** `--kube-api-burst`'s default: 10 requests at once, upstream's (client-go's default). */
export const DEFAULT_KUBE_API_BURST = 10;

/** How a bin reaches the apiserver; the first flags of the driver and the kubelet plugin. */
export const API_FLAGS = {
  kubeconfig: KUBECONFIG_FLAG,
  'kube-api-qps': {
    type: 'number',
    env: 'KUBE_API_QPS',
    default: DEFAULT_KUBE_API_QPS,
    help: 'requests per second to the apiserver (client-side limit; > 0)',
  },
  'kube-api-burst': {
    type: 'integer',
    env: 'KUBE_API_BURST',
    default: DEFAULT_KUBE_API_BURST,
    min: 1,
    help: 'requests sent to the apiserver at once before --kube-api-qps applies',
  },
  'insecure-skip-tls-verify': INSECURE_SKIP_TLS_VERIFY_FLAG,
  'kube-api-content-type': KUBE_API_CONTENT_TYPE_FLAG,
} as const satisfies FlagTable;

/** The manager's endpoints, `--log-level` and `--help`: the last flags of every bin. */
export const PROGRAM_FLAGS = {
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
} as const satisfies FlagTable;

/** The parsed {@link API_FLAGS}. */
export interface ApiFlags {
  /** `--kubeconfig`; empty: `$KUBECONFIG`, in-cluster, then `~/.kube/config`. */
  kubeconfig: string;
  /** `--kube-api-qps` (or `KUBE_API_QPS`): default 5, upstream's. */
  kubeApiQps: number;
  /** `--kube-api-burst` (or `KUBE_API_BURST`): default 10, upstream's. */
  kubeApiBurst: number;
  /** `--insecure-skip-tls-verify`: do not verify the apiserver's certificate. */
  insecureSkipTlsVerify: boolean;
  /** `--kube-api-content-type`: the wire format asked for built-in types. */
  kubeApiContentType: ContentType;
}

/** The parsed {@link PROGRAM_FLAGS}. */
export interface ProgramFlags {
  /** `--metrics-bind-address`: default `:8080`, `0` for none. */
  metricsBindAddress: string;
  /** `--health-probe-bind-address`: default `:8081`, `0` for none. */
  healthProbeBindAddress: string;
  /** `--log-level`: default `info`. */
  logLevel: LogLevel;
  /** `--help`: print the usage and exit. */
  help: boolean;
}

/**
 * {@link ApiFlags} from a parsed table that has {@link API_FLAGS}. Errors: InvalidArgumentError
 * naming `--kube-api-qps` when it is not above 0.
 */
export function apiFlags(values: FlagValues<typeof API_FLAGS>): ApiFlags {
  const qps = values['kube-api-qps'];
  if (!(qps > 0) || !Number.isFinite(qps))
    throw new InvalidArgumentError('--kube-api-qps', `must be a number above 0, got ${qps}`);
  return {
    kubeconfig: values.kubeconfig,
    kubeApiQps: qps,
    kubeApiBurst: values['kube-api-burst'],
    insecureSkipTlsVerify: values['insecure-skip-tls-verify'],
    kubeApiContentType: values['kube-api-content-type'],
  };
}

/** {@link ProgramFlags} from a parsed table that has {@link PROGRAM_FLAGS}. */
export function programFlags(values: FlagValues<typeof PROGRAM_FLAGS>): ProgramFlags {
  return {
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    logLevel: values['log-level'],
    help: values.help,
  };
}

/** `--node-name` (or `NODE_NAME`), required by {@link checkNodeFlags}; `help` says which node. */
export function nodeNameFlag(help: string) {
  return {
    type: 'string',
    env: 'NODE_NAME',
    default: '',
    help,
  } as const satisfies FlagSpec<'string'>;
}

/** `--num-devices` (or `NUM_DEVICES`): simulated GPUs, default {@link DEFAULT_NUM_DEVICES}. */
export const NUM_DEVICES_FLAG = {
  type: 'integer',
  env: 'NUM_DEVICES',
  default: DEFAULT_NUM_DEVICES,
  min: 0,
  help: 'simulated GPUs on the node',
} as const satisfies FlagSpec<'integer'>;

/**
 * Errors: InvalidArgumentError naming `--node-name` when it is empty, or `--num-devices` when it
 * is over 128 (what one ResourceSlice holds).
 */
export function checkNodeFlags(flags: { nodeName: string; numDevices: number }): void {
  if (flags.nodeName === '')
    throw new InvalidArgumentError('--node-name', 'is required (or set NODE_NAME)');
  if (flags.numDevices > 128)
    throw new InvalidArgumentError('--num-devices', 'at most 128 GPUs fit one ResourceSlice');
}
