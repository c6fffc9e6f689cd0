//! The command line of ctrlkit-migrate: `status PLAN [-n NAMESPACE] [--kubeconfig PATH] [--api-group GROUP]`.

import { InvalidArgumentError, isNotFound } from '@ctrlkit/core';
import { GROUP, PLURALS, VERSION } from '@ctrlkit/plan-migration';
import { API_GROUPS, type ApiGroup, type Plan } from '@ctrlkit/plan-migration/api';
import { loadKubeConfig } from '@ctrlkit/runtime';
import { type FlagTable, flagUsage, parseFlagTableWithArgs } from '@ctrlkit/runtime/cli';
import { createClient } from '@ctrlkit/runtime/client';
import packageJson from '../package.json' with { type: 'json' };
import { renderPlanStatus } from './status-table.js';

/** A parsed `ctrlkit-migrate` command. */
export type MigrateCommand =
  | { command: 'help' }
  | {
      command: 'status';
      plan: string;
      namespace: string | undefined;
      kubeconfig: string | undefined;
      apiGroup: ApiGroup;
    };

/** Every flag of `ctrlkit-migrate`. */
const MIGRATE_FLAGS = {
  namespace: {
    type: 'string',
    short: 'n',
    help: 'namespace of the plan; when unset: the kubeconfig context\'s, else "default"',
  },
  kubeconfig: {
    type: 'string',
    help: 'kubeconfig file; when unset: $KUBECONFIG, in-cluster, then ~/.kube/config',
  },
  'api-group': {
    type: 'string',
    default: GROUP,
    choices: API_GROUPS,
    help: "API group of the plan: forklift.ctrlkit.dev, or Forklift's forklift.konveyor.io",
  },
  help: { type: 'boolean', short: 'h', help: 'print this help and exit' },
} satisfies FlagTable;

/** The text of `ctrlkit-migrate --help`. */
export function migrateUsage(): string {
  return flagUsage(MIGRATE_FLAGS, {
    header: [
      'Usage: ctrlkit-migrate status PLAN [-n NAMESPACE] [--kubeconfig PATH] [--api-group GROUP]',
      '',
      "Prints a migration plan's progress: its conditions, and every VM's pipeline steps",
      '(phase, step, progress, started, completed, error).',
    ],
  });
}

/** Parses `argv` (without node and script); throws InvalidArgumentError naming what is wrong. */
export function parseMigrateArgs(argv: readonly string[]): MigrateCommand {
  const parsed = parseFlagTableWithArgs(MIGRATE_FLAGS, argv);
  if (parsed.flags.help) return { command: 'help' };
  const [command, plan, ...extra] = parsed.args;
  if (command !== 'status')
    throw new InvalidArgumentError(
      'command',
      `unknown command ${JSON.stringify(command ?? '')} (known: status)`,
    );
  if (!plan) throw new InvalidArgumentError('PLAN', 'the plan name is required');
  if (extra.length > 0)
    throw new InvalidArgumentError('arguments', `unexpected ${extra.join(' ')}`);
  return {
    command,
    plan,
    namespace: parsed.flags.namespace,
    kubeconfig: parsed.flags.kubeconfig,
    apiGroup: parsed.flags['api-group'],
  };
}

/** Runs `ctrlkit-migrate`; returns the exit code (0 done, 1 failed, 2 bad usage). */
export async function runMigrate(
  argv: readonly string[],
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  let command: MigrateCommand;
  try {
    command = parseMigrateArgs(argv);
  } catch (error) {
    if (!InvalidArgumentError.isInstance(error)) throw error;
    err(`${error.message}\n\n${migrateUsage()}`);
    return 2;
  }
  if (command.command === 'help') {
    out(migrateUsage());
    return 0;
  }
  const kubeConfig = loadKubeConfig({ kubeconfig: command.kubeconfig });
  const namespace =
    command.namespace ??
    kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace ??
    'default';
  const client = createClient(kubeConfig, {
    program: { name: 'ctrlkit-migrate', version: packageJson.version },
  });
  try {
    const plan = await client.get<Plan>(
      { group: command.apiGroup, version: VERSION, resource: PLURALS.Plan },
      command.plan,
      { namespace },
    );
    out(renderPlanStatus(plan));
    return 0;
  } catch (error) {
    if (isNotFound(error)) {
      err(`plan ${namespace}/${command.plan} not found\n`);
      return 1;
    }
    throw error;
  }
}
