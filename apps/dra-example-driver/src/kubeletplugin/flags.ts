//! Command-line flags of ctrlkit-dra-example-kubeletplugin.

import { InvalidArgumentError } from '@ctrlkit/core';
import {
  CDI_DYNAMIC_DIR,
  KUBELET_PLUGINS_DIR,
  KUBELET_REGISTRY_DIR,
} from '@ctrlkit/dra-kubeletplugin';
import { type FlagTable, flagUsage, parseFlagTable } from '@ctrlkit/runtime/cli';
import {
  API_FLAGS,
  type ApiFlags,
  apiFlags,
  checkNodeFlags,
  NUM_DEVICES_FLAG,
  nodeNameFlag,
  PROGRAM_FLAGS,
  type ProgramFlags,
  programFlags,
} from '../bin-flags.js';

/** The parsed flags of the kubelet plugin. */
export interface KubeletPluginFlags extends ApiFlags, ProgramFlags {
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
}

const FLAGS = {
  ...API_FLAGS,
  'node-name': nodeNameFlag('the node this plugin runs on (required)'),
  'num-devices': NUM_DEVICES_FLAG,
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
  ...PROGRAM_FLAGS,
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
    ...apiFlags(values),
    nodeName: values['node-name'],
    numDevices: values['num-devices'],
    cdiRoot: values['cdi-root'],
    kubeletRegistrarDirectoryPath: values['kubelet-registrar-directory-path'],
    kubeletPluginsDirectoryPath: values['kubelet-plugins-directory-path'],
    ...programFlags(values),
  };
  if (flags.help) return flags;
  checkNodeFlags(flags);
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
