//! Command-line flags of ctrlkit-dra-example-driver.

import { InvalidArgumentError } from '@ctrlkit/core';
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
} from './bin-flags.js';

/** The parsed flags. */
export interface Flags extends ApiFlags, ProgramFlags {
  nodeName: string;
  numDevices: number;
  partitions: number;
}

/** Counter sets one ResourceSlice may hold (resource.k8s.io/v1's limit): one per partitioned GPU. */
const MAX_COUNTER_SETS_PER_SLICE = 8;

const FLAGS = {
  ...API_FLAGS,
  'node-name': nodeNameFlag('the node whose GPUs are published (required)'),
  'num-devices': NUM_DEVICES_FLAG,
  partitions: {
    type: 'integer',
    env: 'PARTITIONS',
    default: 0,
    min: 0,
    help: 'partitions per GPU, published with shared counters; 0 for whole GPUs only',
  },
  ...PROGRAM_FLAGS,
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
    ...apiFlags(values),
    nodeName: values['node-name'],
    numDevices: values['num-devices'],
    partitions: values.partitions,
    ...programFlags(values),
  };
  if (flags.help) return flags;
  checkNodeFlags(flags);
  if (flags.partitions > 0 && flags.numDevices > MAX_COUNTER_SETS_PER_SLICE) {
    throw new InvalidArgumentError(
      '--num-devices',
      `at most ${MAX_COUNTER_SETS_PER_SLICE} GPUs with --partitions (one counter set per GPU; a ResourceSlice holds at most ${MAX_COUNTER_SETS_PER_SLICE})`,
    );
  }
  if (flags.partitions > 0 && flags.numDevices * (flags.partitions + 1) > 64) {
    throw new InvalidArgumentError(
      '--partitions',
      'num-devices × (partitions + 1) must be at most 64 (devices consuming counters per slice)',
    );
  }
  return flags;
}
