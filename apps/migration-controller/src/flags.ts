//! The command line of ctrlkit-migration-controller: every flag with its default and help.

import { InvalidArgumentError } from '@ctrlkit/core';
import { GROUP, MAX_VM_INFLIGHT } from '@ctrlkit/plan-migration';
import { API_GROUPS, type ApiGroup } from '@ctrlkit/plan-migration/api';
import { DEFAULT_VIRT_V2V_IMAGE } from '@ctrlkit/plan-migration/kubevirt';
import {
  CERT_DIR_FLAG,
  type FlagTable,
  flagUsage,
  HELP_FLAG,
  INSECURE_SKIP_TLS_VERIFY_FLAG,
  KUBE_API_CONTENT_TYPE_FLAG,
  LOG_LEVEL_FLAG,
  type LogLevel,
  parseFlagTable,
  servingCertificateFiles,
  TLS_CERT_FILE_FLAG,
  TLS_PRIVATE_KEY_FILE_FLAG,
} from '@ctrlkit/runtime/cli';
import type { ContentType } from '@ctrlkit/runtime/client';
import {
  DEFAULT_HEALTH_PROBE_BIND_ADDRESS,
  DEFAULT_METRICS_BIND_ADDRESS,
} from '@ctrlkit/runtime/manager';
import { checkRingName } from '@ctrlkit/runtime/sharding';

/** The Lease name used with `--leader-elect` by default. */
export const DEFAULT_LEADER_ELECTION_ID = 'ctrlkit-migration-controller';
/** Where the OVA catalog (the NFS share) is mounted by default, as Forklift's OVA provider server. */
export const DEFAULT_OVA_CATALOG_PATH = '/ova';

/** Destinations `--destination` accepts: KubeVirt and CDI, or ConfigMaps standing in for them. */
export const DESTINATIONS = ['kubevirt', 'configmap'] as const;

/** The parsed flags. */
export interface Flags {
  kubeconfig: string | undefined;
  /** `--insecure-skip-tls-verify`: do not verify the apiserver's certificate. */
  insecureSkipTlsVerify: boolean;
  /** `--kube-api-content-type`: the wire format asked for built-in types. */
  kubeApiContentType: ContentType;
  apiGroup: ApiGroup;
  leaderElect: boolean;
  leaderElectionId: string;
  leaderElectionNamespace: string | undefined;
  shardsRing: string | undefined;
  maxVmInflight: number;
  metricsBindAddress: string;
  healthProbeBindAddress: string;
  ovaCatalogPath: string;
  destination: (typeof DESTINATIONS)[number];
  virtV2vImage: string;
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
  'api-group': {
    type: 'string',
    default: GROUP,
    choices: API_GROUPS,
    help: "API group of the Plans, Providers, maps, Hooks and Migrations: forklift.ctrlkit.dev (beside an installed Forklift), or Forklift's forklift.konveyor.io",
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
  'shards-ring': {
    type: 'string',
    default: undefined,
    help: "run the Plan controller sharded in this ring (needs --leader-elect): every replica reconciles its share of the Plans (and their Migrations), holding a shard Lease in the leader election's namespace; unset: the leader reconciles every Plan",
  },
  'max-vm-inflight': {
    type: 'integer',
    default: MAX_VM_INFLIGHT,
    min: 1,
    env: 'MAX_VM_INFLIGHT',
    help: 'VMs migrated at once per source provider, as in Forklift',
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
    help: "where the ova Providers' NFS shares are mounted: a Provider with spec.url server:/path reads <this>/<server>/<path>",
  },
  destination: {
    type: 'string',
    default: 'kubevirt',
    choices: DESTINATIONS,
    help: "where VMs go: 'kubevirt' (DataVolumes, conversion pods, VirtualMachines; needs KubeVirt and CDI) or 'configmap' (a ConfigMap per disk and VM, to try plans without KubeVirt)",
  },
  'virt-v2v-image': {
    type: 'string',
    default: DEFAULT_VIRT_V2V_IMAGE,
    env: 'VIRT_V2V_IMAGE',
    help: 'image of the guest conversion (virt-v2v) pods, as in Forklift',
  },
  'log-level': LOG_LEVEL_FLAG,
  help: HELP_FLAG,
} satisfies FlagTable;

/** The text of `--help`. */
export function usage(): string {
  return flagUsage(FLAGS, {
    header: [
      'Usage: ctrlkit-migration-controller [flags]',
      '',
      "Runs Forklift's Plan, Migration, Provider, NetworkMap, StorageMap and Hook controllers",
      '(group forklift.ctrlkit.dev, or forklift.konveyor.io with --api-group) on one manager.',
    ],
  });
}

/**
 * Parses `argv` (without node and script), falling back to `env` (`MAX_VM_INFLIGHT`, `VIRT_V2V_IMAGE`) and
 * the defaults; throws InvalidArgumentError naming a bad flag.
 */
export function parseFlags(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Flags {
  const values = parseFlagTable(FLAGS, argv, env);
  const leaderElectionId = values['leader-election-id'];
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(leaderElectionId)) {
    throw new InvalidArgumentError(
      '--leader-election-id',
      `"${leaderElectionId}" is not a valid Lease name`,
    );
  }
  const shardsRing = values['shards-ring'];
  if (shardsRing !== undefined) {
    checkRingName(shardsRing, '--shards-ring');
    if (!values['leader-elect']) {
      throw new InvalidArgumentError(
        '--shards-ring',
        'needs --leader-elect (the Provider, map, Hook and Migration controllers run on the leader only)',
      );
    }
  }
  const ovaCatalogPath = values['ova-catalog-path'];
  if (!ovaCatalogPath.startsWith('/')) {
    throw new InvalidArgumentError(
      '--ova-catalog-path',
      `must be an absolute path, got ${JSON.stringify(ovaCatalogPath)}`,
    );
  }
  const virtV2vImage = values['virt-v2v-image'];
  if (virtV2vImage.trim() === '' || /\s/.test(virtV2vImage)) {
    throw new InvalidArgumentError(
      '--virt-v2v-image',
      `must be an image reference, got ${JSON.stringify(virtV2vImage)}`,
    );
  }
  return {
    kubeconfig: values.kubeconfig,
    insecureSkipTlsVerify: values['insecure-skip-tls-verify'],
    kubeApiContentType: values['kube-api-content-type'],
    apiGroup: values['api-group'],
    leaderElect: values['leader-elect'],
    leaderElectionId,
    leaderElectionNamespace: values['leader-election-namespace'],
    shardsRing,
    maxVmInflight: values['max-vm-inflight'],
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    ovaCatalogPath,
    destination: values.destination,
    virtV2vImage,
    logLevel: values['log-level'],
    help: values.help,
  };
}

/** The port ctrlkit-forklift-api serves its webhooks on by default: 8443, as forklift-api (`API_PORT`). */
export const DEFAULT_FORKLIFT_API_PORT = 8443;

/** The parsed flags of ctrlkit-forklift-api. */
export interface ForkliftApiFlags
  extends Pick<
    Flags,
    | 'kubeconfig'
    | 'insecureSkipTlsVerify'
    | 'kubeApiContentType'
    | 'apiGroup'
    | 'metricsBindAddress'
    | 'healthProbeBindAddress'
    | 'logLevel'
    | 'help'
  > {
  /** The folder of the serving certificate and key (`--cert-dir`, or the folder of `--tls-cert-file`). */
  certDir: string;
  /** The certificate's file name in `certDir`. */
  certName: string;
  /** The key's file name in `certDir`. */
  keyName: string;
  port: number;
}

/** Every flag of ctrlkit-forklift-api: the controller's connection, group, address and log flags, and the webhook server's. */
export const FORKLIFT_API_FLAGS = {
  kubeconfig: FLAGS.kubeconfig,
  'insecure-skip-tls-verify': INSECURE_SKIP_TLS_VERIFY_FLAG,
  'kube-api-content-type': KUBE_API_CONTENT_TYPE_FLAG,
  'api-group': {
    ...FLAGS['api-group'],
    help: 'API group of the Plans, Providers, Hooks and Migrations admitted',
  },
  'tls-cert-file': { ...TLS_CERT_FILE_FLAG, env: 'API_TLS_CERTIFICATE' },
  'tls-private-key-file': { ...TLS_PRIVATE_KEY_FILE_FLAG, env: 'API_TLS_KEY' },
  'cert-dir': CERT_DIR_FLAG,
  port: {
    type: 'integer',
    default: DEFAULT_FORKLIFT_API_PORT,
    min: 1,
    max: 65535,
    env: 'API_PORT',
    help: 'port of the HTTPS webhook server',
  },
  'metrics-bind-address': FLAGS['metrics-bind-address'],
  'health-probe-bind-address': FLAGS['health-probe-bind-address'],
  'log-level': LOG_LEVEL_FLAG,
  help: HELP_FLAG,
} satisfies FlagTable;

/** The text of ctrlkit-forklift-api's `--help`. */
export function forkliftApiUsage(): string {
  return flagUsage(FORKLIFT_API_FLAGS, {
    header: [
      'Usage: ctrlkit-forklift-api [flags]',
      '',
      "Serves Forklift's forklift-api admission webhooks: the Plan, Provider, Migration and Hook",
      'admitters and the Plan and Provider mutators, over HTTPS.',
    ],
  });
}

/**
 * Parses ctrlkit-forklift-api's `argv`, falling back to `env` (`API_TLS_CERTIFICATE`,
 * `API_TLS_KEY`, `API_PORT`) and the defaults; throws InvalidArgumentError naming a bad flag.
 */
export function parseForkliftApiFlags(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ForkliftApiFlags {
  const values = parseFlagTable(FORKLIFT_API_FLAGS, argv, env);
  return {
    kubeconfig: values.kubeconfig,
    insecureSkipTlsVerify: values['insecure-skip-tls-verify'],
    kubeApiContentType: values['kube-api-content-type'],
    apiGroup: values['api-group'],
    ...servingCertificateFiles(
      values['tls-cert-file'],
      values['tls-private-key-file'],
      values['cert-dir'],
    ),
    port: values.port,
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    logLevel: values['log-level'],
    help: values.help,
  };
}
