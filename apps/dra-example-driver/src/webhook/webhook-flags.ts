//! Command-line flags of ctrlkit-dra-example-webhook (upstream dra-example-webhook's, and the app's probe and metrics flags).

import { InvalidArgumentError } from '@ctrlkit/core';
import {
  CERT_DIR_FLAG,
  type FlagTable,
  flagUsage,
  parseFlagTable,
  servingCertificateFiles,
  TLS_CERT_FILE_FLAG,
  TLS_PRIVATE_KEY_FILE_FLAG,
} from '@ctrlkit/runtime/cli';
import { DEFAULT_WEBHOOK_PORT } from '@ctrlkit/runtime/webhook';
import { KUBECONFIG_FLAG, PROGRAM_FLAGS, type ProgramFlags, programFlags } from '../bin-flags.js';
import { DRIVER_NAME } from '../devices.js';

/** The parsed flags of the webhook. */
export interface WebhookFlags extends ProgramFlags {
  kubeconfig: string;
  /** The folder of the serving certificate and key (from `--cert-dir`, or the folder of `--tls-cert-file`). */
  certDir: string;
  /** The certificate's file name in `certDir`. */
  certName: string;
  /** The key's file name in `certDir`. */
  keyName: string;
  port: number;
  /** The driver whose opaque configurations are validated. */
  driverName: string;
}

const FLAGS = {
  kubeconfig: {
    ...KUBECONFIG_FLAG,
    help: 'kubeconfig file (the manager is built on it; the webhook makes no API calls); when unset: $KUBECONFIG, in-cluster, then ~/.kube/config',
  },
  'tls-cert-file': TLS_CERT_FILE_FLAG,
  'tls-private-key-file': TLS_PRIVATE_KEY_FILE_FLAG,
  'cert-dir': CERT_DIR_FLAG,
  port: {
    type: 'integer',
    default: DEFAULT_WEBHOOK_PORT,
    min: 1,
    max: 65535,
    help: 'port of the HTTPS webhook server',
  },
  'driver-name': {
    type: 'string',
    env: 'DRIVER_NAME',
    default: DRIVER_NAME,
    help: 'the DRA driver whose opaque device configurations (GpuConfig) are validated',
  },
  ...PROGRAM_FLAGS,
} satisfies FlagTable;

/** The `--help` text: every flag with its default. */
export function webhookUsage(): string {
  return flagUsage(FLAGS, {
    header: [
      'Usage: ctrlkit-dra-example-webhook [flags]',
      '',
      'Validates the opaque device configuration (GpuConfig) in ResourceClaims and ResourceClaimTemplates.',
    ],
  });
}

/**
 * Parses `argv` (without node and script), falling back to `env` and the defaults; throws
 * InvalidArgumentError naming a bad flag.
 */
export function parseWebhookFlags(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): WebhookFlags {
  const values = parseFlagTable(FLAGS, argv, env);
  const flags: WebhookFlags = {
    kubeconfig: values.kubeconfig,
    ...servingCertificateFiles(
      values['tls-cert-file'],
      values['tls-private-key-file'],
      values['cert-dir'],
    ),
    port: values.port,
    driverName: values['driver-name'],
    ...programFlags(values),
  };
  if (!flags.help && flags.driverName === '')
    throw new InvalidArgumentError('--driver-name', 'must not be empty');
  return flags;
}
