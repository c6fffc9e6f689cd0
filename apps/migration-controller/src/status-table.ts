//! A plan's progress as text: a summary line and a table of every VM's pipeline steps.

import type { Plan, Step, VMStatus } from '@ctrlkit/plan-migration/api';

/** The columns of {@link renderPlanStatus}'s table. */
export const STATUS_COLUMNS = [
  'VM',
  'PHASE',
  'STEP',
  'STATUS',
  'PROGRESS',
  'STARTED',
  'COMPLETED',
  'ERROR',
] as const;

/** `completed/total unit` (`512/1024 MB`), or `completed/total` for a step without a unit. */
export function formatProgress(step: Pick<Step, 'progress' | 'annotations'>): string {
  const unit = step.annotations?.unit;
  const text = `${step.progress.completed}/${step.progress.total}`;
  return unit ? `${text} ${unit}` : text;
}

/** The VM's name as shown: its new name when renamed, else its name, else its id. */
function vmName(vm: VMStatus): string {
  return vm.newName || vm.name || vm.id || '?';
}

/** A step's state: `Failed` when it has an error, else its phase (`Pending` when unset). */
function stepStatus(step: Step): string {
  if (step.error) return 'Failed';
  return step.phase || 'Pending';
}

function stepError(step: Step): string {
  return step.error ? step.error.reasons.join('; ') : '';
}

/** The rows of the table: one per VM and pipeline step (one per VM without a pipeline yet). */
export function statusRows(plan: Plan): string[][] {
  const rows: string[][] = [];
  for (const vm of plan.status?.migration?.vms ?? []) {
    if (vm.pipeline.length === 0) {
      rows.push([
        vmName(vm),
        vm.phase,
        '',
        '',
        '',
        vm.started ?? '',
        vm.completed ?? '',
        vm.error?.reasons.join('; ') ?? '',
      ]);
      continue;
    }
    for (const step of vm.pipeline) {
      rows.push([
        vmName(vm),
        vm.phase,
        step.name,
        stepStatus(step),
        formatProgress(step),
        step.started ?? '',
        step.completed ?? '',
        stepError(step),
      ]);
    }
  }
  return rows;
}

/** Left-aligned columns two spaces apart, as `kubectl get` prints them; no trailing spaces. */
export function formatTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/**
 * A plan's progress: `Plan <ns>/<name>: <true conditions>` with the execution's start and
 * end, the VM counts by outcome, then {@link STATUS_COLUMNS} for every VM and step (the
 * view a person follows during a migration). A plan that never ran says so.
 */
export function renderPlanStatus(plan: Plan): string {
  const conditions = (plan.status?.conditions ?? [])
    .filter((c) => c.status === 'True')
    .map((c) => c.type);
  const migration = plan.status?.migration;
  const lines = [
    `Plan ${plan.metadata.namespace}/${plan.metadata.name}: ${conditions.join(', ') || 'no conditions'}`,
  ];
  if (migration?.started) {
    lines.push(
      `Migration started ${migration.started}${migration.completed ? `, completed ${migration.completed}` : ''}`,
    );
  }
  const vms = migration?.vms ?? [];
  if (vms.length === 0) {
    lines.push('No VM has been migrated yet (create a Migration of this plan to run it).');
    return `${lines.join('\n')}\n`;
  }
  const count = (type: string) =>
    vms.filter((vm) => (vm.conditions ?? []).some((c) => c.type === type && c.status === 'True'))
      .length;
  const outcomes = ['Succeeded', 'Failed', 'Canceled']
    .map((type) => [type, count(type)] as const)
    .filter(([, n]) => n > 0)
    .map(([type, n]) => `${n} ${type}`);
  const running = vms.filter((vm) => vm.started && !vm.completed).length;
  lines.push(
    `VMs: ${vms.length}${running > 0 ? `, ${running} running` : ''}${outcomes.length > 0 ? `, ${outcomes.join(', ')}` : ''}`,
  );
  lines.push('', formatTable(STATUS_COLUMNS, statusRows(plan)));
  return `${lines.join('\n')}\n`;
}
