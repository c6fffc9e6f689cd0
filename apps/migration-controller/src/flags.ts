//! The command line of ctrlkit-migration-controller: every flag with its default and help.

import { parseArgs } from 'node:util';
import { MAX_VM_INFLIGHT } from '@ctrlkit/plan-migration';
import { DEFAULT_HEALTH_PROBE_BIND_ADDRESS, DEFAULT_METRICS_BIND_ADDRESS } from '@ctrlkit/runtime';
import { InvalidArgumentError } from '@ctrlkit/workqueue';

/** The Lease name used with `--leader-elect` by default. */
export const DEFAULT_LEADER_ELECTION_ID = 'ctrlkit-migration-controller';
/** Where the OVA catalog (the NFS share) is mounted by default, as Forklift's OVA provider server. */
export const DEFAULT_OVA_CATALOG_PATH = '/ova';

/** Destinations `--destination` accepts: KubeVirt and CDI, or ConfigMaps standing in for them. */
export const DESTINATIONS = ['kubevirt', 'configmap'] as const;

/** Log levels of pino that `--log-level` accepts. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** The parsed flags. */
export interface Flags {
  kubeconfig: string | undefined;
  leaderElect: boolean;
  leaderElectionId: string;
  leaderElectionNamespace: string | undefined;
  maxVmInflight: number;
  metricsBindAddress: string;
  healthProbeBindAddress: string;
  ovaCatalogPath: string;
  destination: (typeof DESTINATIONS)[number];
  logLevel: (typeof LOG_LEVELS)[number];
  help: boolean;
}

interface FlagSpec {
  type: 'string' | 'boolean';
  default: string | boolean | undefined;
  help: string;
  /** Another spelling of this flag (shown in the help, same value). */
  alias?: string;
}

/** Every flag: name, default (shown by --help), help text. */
export const FLAGS: Record<string, FlagSpec> = {
  kubeconfig: {
    type: 'string',
    default: undefined,
    help: 'kubeconfig file; when unset: $KUBECONFIG, in-cluster, then ~/.kube/config',
  },
  'leader-elect': {
    type: 'boolean',
    default: false,
    help: 'elect a leader with a Lease before running the controllers (one active replica)',
  },
  'leader-election-id': {
    type: 'string',
    default: DEFAULT_LEADER_ELECTION_ID,
    help: 'name of the leader election Lease',
  },
  'leader-election-namespace': {
    type: 'string',
    default: undefined,
    help: "namespace of the Lease; when unset: the pod's namespace (required outside a cluster)",
  },
  'max-vm-inflight': {
    type: 'string',
    default: String(MAX_VM_INFLIGHT),
    help: 'VMs migrated at once per source provider (Forklift MAX_VM_INFLIGHT; env MAX_VM_INFLIGHT)',
  },
  'metrics-bind-address': {
    type: 'string',
    default: DEFAULT_METRICS_BIND_ADDRESS,
    alias: 'metrics-addr',
    help: "address of /metrics; '0' turns it off",
  },
  'health-probe-bind-address': {
    type: 'string',
    default: DEFAULT_HEALTH_PROBE_BIND_ADDRESS,
    alias: 'healthz-addr',
    help: "address of /healthz and /readyz; '0' turns it off",
  },
  'ova-catalog-path': {
    type: 'string',
    default: DEFAULT_OVA_CATALOG_PATH,
    help: 'where the OVA catalog (NFS share) of ova providers is mounted',
  },
  destination: {
    type: 'string',
    default: 'kubevirt',
    help: "where VMs go: 'kubevirt' (DataVolumes, conversion pods, VirtualMachines; needs KubeVirt and CDI) or 'configmap' (a ConfigMap per disk and VM, to try plans without KubeVirt)",
  },
  'log-level': {
    type: 'string',
    default: 'info',
    help: `${LOG_LEVELS.join(', ')} (JSON lines on stdout)`,
  },
  help: { type: 'boolean', default: false, help: 'print this help and exit' },
};

/** The text of `--help`. */
export function usage(): string {
  const lines = [
    'Usage: ctrlkit-migration-controller [flags]',
    '',
    "Runs Forklift's Plan, Migration, Provider, NetworkMap, StorageMap and Hook controllers",
    '(group forklift.ctrlkit.dev) on one manager.',
    '',
    'Flags:',
  ];
  for (const [name, spec] of Object.entries(FLAGS)) {
    const value = spec.type === 'boolean' ? '' : ' <value>';
    const shown = spec.default === undefined ? '(none)' : JSON.stringify(spec.default);
    const names = spec.alias ? `--${name}, --${spec.alias}` : `--${name}`;
    lines.push(`${`  ${names}${value}`.padEnd(56)}${spec.help} (default ${shown})`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Parses `argv` (without node and script), falling back to `env` (`MAX_VM_INFLIGHT`) and
 * the defaults; throws InvalidArgumentError naming a bad flag.
 */
export function parseFlags(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Flags {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const [name, spec] of Object.entries(FLAGS)) {
    options[name] = { type: spec.type };
    if (spec.alias) options[spec.alias] = { type: spec.type };
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options, allowPositionals: false, strict: true })
      .values as never;
  } catch (error) {
    throw new InvalidArgumentError('flags', (error as Error).message);
  }
  const text = (name: string): string | undefined => {
    const spec = FLAGS[name] as FlagSpec;
    const own = values[name] as string | undefined;
    const alias = spec.alias ? (values[spec.alias] as string | undefined) : undefined;
    if (own !== undefined && alias !== undefined && own !== alias) {
      throw new InvalidArgumentError(
        `--${name}`,
        `--${name} and --${spec.alias} disagree (${own} vs ${alias})`,
      );
    }
    return own ?? alias ?? (spec.default as string | undefined);
  };
  const inflightText =
    (values['max-vm-inflight'] as string | undefined) ??
    env.MAX_VM_INFLIGHT ??
    String(MAX_VM_INFLIGHT);
  const maxVmInflight = Number(inflightText);
  if (!/^\d+$/.test(inflightText) || maxVmInflight < 1) {
    throw new InvalidArgumentError(
      '--max-vm-inflight',
      `must be an integer >= 1, got ${JSON.stringify(inflightText)}`,
    );
  }
  const logLevel = text('log-level') as Flags['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new InvalidArgumentError(
      '--log-level',
      `unknown level "${logLevel}" (known: ${LOG_LEVELS.join(', ')})`,
    );
  }
  const leaderElectionId = text('leader-election-id') as string;
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(leaderElectionId)) {
    throw new InvalidArgumentError(
      '--leader-election-id',
      `"${leaderElectionId}" is not a valid Lease name`,
    );
  }
  const ovaCatalogPath = text('ova-catalog-path') as string;
  if (!ovaCatalogPath.startsWith('/')) {
    throw new InvalidArgumentError(
      '--ova-catalog-path',
      `must be an absolute path, got ${JSON.stringify(ovaCatalogPath)}`,
    );
  }
  const destination = text('destination') as Flags['destination'];
  if (!DESTINATIONS.includes(destination)) {
    throw new InvalidArgumentError(
      '--destination',
      `unknown destination "${destination}" (known: ${DESTINATIONS.join(', ')})`,
    );
  }
  return {
    kubeconfig: text('kubeconfig'),
    leaderElect: values['leader-elect'] === true,
    leaderElectionId,
    leaderElectionNamespace: text('leader-election-namespace'),
    maxVmInflight,
    metricsBindAddress: text('metrics-bind-address') as string,
    healthProbeBindAddress: text('health-probe-bind-address') as string,
    ovaCatalogPath,
    destination,
    logLevel,
    help: values.help === true,
  };
}
