//! Command-line flags of ctrlkit-dra-example-driver.

import { parseArgs } from 'node:util';
import { DEFAULT_NUM_DEVICES } from './devices.js';

/** The parsed flags. */
export interface Flags {
  kubeconfig: string;
  nodeName: string;
  numDevices: number;
  partitions: number;
  metricsBindAddress: string;
  healthProbeBindAddress: string;
  logLevel: string;
  help: boolean;
}

interface FlagSpec {
  name: string;
  key: keyof Flags;
  type: 'string' | 'boolean';
  env?: string;
  default: string;
  usage: string;
}

const specs: FlagSpec[] = [
  {
    name: 'kubeconfig',
    key: 'kubeconfig',
    type: 'string',
    default: '',
    usage: 'kubeconfig file; empty: KUBECONFIG, in-cluster, then ~/.kube/config',
  },
  {
    name: 'node-name',
    key: 'nodeName',
    type: 'string',
    env: 'NODE_NAME',
    default: '',
    usage: 'the node whose GPUs are published (required; env NODE_NAME)',
  },
  {
    name: 'num-devices',
    key: 'numDevices',
    type: 'string',
    env: 'NUM_DEVICES',
    default: String(DEFAULT_NUM_DEVICES),
    usage: 'simulated GPUs on the node (env NUM_DEVICES)',
  },
  {
    name: 'partitions',
    key: 'partitions',
    type: 'string',
    env: 'PARTITIONS',
    default: '0',
    usage: 'partitions per GPU, published with shared counters; 0 for whole GPUs only',
  },
  {
    name: 'metrics-bind-address',
    key: 'metricsBindAddress',
    type: 'string',
    default: ':8080',
    usage: "address of /metrics; '0' turns it off",
  },
  {
    name: 'health-probe-bind-address',
    key: 'healthProbeBindAddress',
    type: 'string',
    default: ':8081',
    usage: "address of /healthz and /readyz; '0' turns it off",
  },
  {
    name: 'log-level',
    key: 'logLevel',
    type: 'string',
    default: 'info',
    usage: 'trace, debug, info, warn, error or fatal (JSON lines on stdout)',
  },
  {
    name: 'help',
    key: 'help',
    type: 'boolean',
    default: 'false',
    usage: 'print this help and exit',
  },
];

/** A flag value that cannot be used; `flag` names it. */
export class FlagError extends Error {
  readonly reason = 'InvalidFlag' as const;
  readonly flag: string;
  constructor(flag: string, problem: string) {
    super(`--${flag}: ${problem}`);
    this.name = 'FlagError';
    this.flag = flag;
  }

  /** True for a FlagError. */
  static isFlagError(value: unknown): value is FlagError {
    return value instanceof Error && (value as { reason?: unknown }).reason === 'InvalidFlag';
  }
}

/** The `--help` text: every flag with its default. */
export function usage(): string {
  const lines = [
    'Usage: ctrlkit-dra-example-driver [flags]',
    '',
    'Publishes simulated GPUs of one node as DRA ResourceSlices (driver gpu.example.com).',
    '',
    'Flags:',
  ];
  for (const spec of specs) {
    const def = spec.type === 'boolean' ? spec.default : JSON.stringify(spec.default);
    lines.push(`  --${spec.name.padEnd(27)} ${spec.usage} (default ${def})`);
  }
  return `${lines.join('\n')}\n`;
}

const logLevels = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

function nonNegativeInteger(flag: string, text: string): number {
  if (!/^\d+$/.test(text))
    throw new FlagError(flag, `must be an integer >= 0, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** Parses `argv` (without node and script), falling back to `env` and the defaults. */
export function parseFlags(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Flags {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: Object.fromEntries(specs.map((s) => [s.name, { type: s.type }])),
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new FlagError('flags', (error as Error).message);
  }
  const text = (spec: FlagSpec): string =>
    (values[spec.name] as string | undefined) ??
    (spec.env ? env[spec.env] : undefined) ??
    spec.default;
  const get = (name: string) => text(specs.find((s) => s.name === name) as FlagSpec);
  const flags: Flags = {
    kubeconfig: get('kubeconfig'),
    nodeName: get('node-name'),
    numDevices: nonNegativeInteger('num-devices', get('num-devices')),
    partitions: nonNegativeInteger('partitions', get('partitions')),
    metricsBindAddress: get('metrics-bind-address'),
    healthProbeBindAddress: get('health-probe-bind-address'),
    logLevel: get('log-level'),
    help: values.help === true,
  };
  if (flags.help) return flags;
  if (flags.nodeName === '') throw new FlagError('node-name', 'is required (or set NODE_NAME)');
  if (!logLevels.has(flags.logLevel))
    throw new FlagError('log-level', `must be one of ${[...logLevels].join(', ')}`);
  if (flags.numDevices > 128)
    throw new FlagError('num-devices', 'at most 128 GPUs fit one ResourceSlice');
  if (flags.partitions > 0 && flags.numDevices * (flags.partitions + 1) > 64) {
    throw new FlagError(
      'partitions',
      'num-devices × (partitions + 1) must be at most 64 (devices consuming counters per slice)',
    );
  }
  return flags;
}
