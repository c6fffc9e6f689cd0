import type { Plan } from '@ctrlkit/plan-migration/api';
import { describe, expect, it } from 'vitest';
import { formatProgress, formatTable, renderPlanStatus, statusRows } from './status-table.js';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const cond = (type: string) => ({
  type,
  status: 'True' as const,
  category: 'Advisory',
  lastTransitionTime: T0,
});

const plan = {
  metadata: { name: 'p', namespace: 'ns' },
  spec: {},
  status: {
    conditions: [cond('Ready'), cond('Executing'), { ...cond('Failed'), status: 'False' as const }],
    migration: {
      started: T0,
      vms: [
        {
          id: 'vm-0',
          name: 'web',
          phase: 'CopyDisks',
          started: T0,
          pipeline: [
            {
              name: 'Initialize',
              phase: 'Completed',
              progress: { completed: 1, total: 1 },
              started: T0,
              completed: T1,
            },
            {
              name: 'DiskTransfer',
              phase: 'Running',
              progress: { completed: 512, total: 2048 },
              annotations: { unit: 'MB' },
              started: T1,
            },
            {
              name: 'VirtualMachineCreation',
              phase: 'Pending',
              progress: { completed: 0, total: 1 },
            },
          ],
        },
        {
          id: 'vm-1',
          name: 'db',
          newName: 'db-renamed',
          phase: 'Completed',
          started: T0,
          completed: T1,
          conditions: [cond('Failed')],
          pipeline: [
            {
              name: 'DiskTransfer',
              phase: 'Completed',
              progress: { completed: 10, total: 100 },
              annotations: { unit: 'MB' },
              started: T0,
              completed: T1,
              error: { phase: 'CopyDisks', reasons: ['importer restart limit exceeded', 'again'] },
            },
          ],
        },
        { id: 'vm-2', name: 'queued', phase: 'Pending', pipeline: [] },
      ],
    },
  },
} as unknown as Plan;

describe('renderPlanStatus', () => {
  it('a row per VM and step: phase, step status, progress with unit, times, error', () => {
    expect(statusRows(plan)).toEqual([
      ['web', 'CopyDisks', 'Initialize', 'Completed', '1/1', T0, T1, ''],
      ['web', 'CopyDisks', 'DiskTransfer', 'Running', '512/2048 MB', T1, '', ''],
      ['web', 'CopyDisks', 'VirtualMachineCreation', 'Pending', '0/1', '', '', ''],
      [
        'db-renamed',
        'Completed',
        'DiskTransfer',
        'Failed',
        '10/100 MB',
        T0,
        T1,
        'importer restart limit exceeded; again',
      ],
      ['queued', 'Pending', '', '', '', '', '', ''],
    ]);
  });

  it('a summary (true conditions, start, VM counts) above an aligned table', () => {
    const text = renderPlanStatus(plan);
    const lines = text.split('\n');
    expect(lines[0]).toBe('Plan ns/p: Ready, Executing');
    expect(lines[1]).toBe(`Migration started ${T0}`);
    expect(lines[2]).toBe('VMs: 3, 1 running, 1 Failed');
    expect(lines[4]).toMatch(
      /^VM {2,}PHASE {2,}STEP {2,}STATUS {2,}PROGRESS {2,}STARTED {2,}COMPLETED {2,}ERROR$/,
    );
    // every column starts at the same offset on every row
    const at = (line: string, cell: string) => line.indexOf(cell);
    expect(at(lines[5] as string, 'Initialize')).toBe(at(lines[4] as string, 'STEP'));
    expect(at(lines[8] as string, '10/100 MB')).toBe(at(lines[4] as string, 'PROGRESS'));
    expect(text.split('\n').every((l) => l === l.trimEnd())).toBe(true);
  });

  it('a plan that never ran says how to run it', () => {
    const idle = {
      metadata: { name: 'p', namespace: 'ns' },
      spec: {},
      status: { conditions: [cond('Ready')] },
    } as unknown as Plan;
    expect(renderPlanStatus(idle)).toBe(
      'Plan ns/p: Ready\nNo VM has been migrated yet (create a Migration of this plan to run it).\n',
    );
    expect(
      renderPlanStatus({ metadata: { name: 'p', namespace: 'ns' }, spec: {} } as unknown as Plan),
    ).toContain('Plan ns/p: no conditions');
  });

  it('formatProgress and formatTable', () => {
    expect(formatProgress({ progress: { completed: 3, total: 4 } })).toBe('3/4');
    expect(
      formatProgress({ progress: { completed: 3, total: 4 }, annotations: { unit: 'MB' } }),
    ).toBe('3/4 MB');
    expect(
      formatTable(
        ['A', 'BB'],
        [
          ['xxx', ''],
          ['y', 'z'],
        ],
      ),
    ).toBe('A    BB\nxxx\ny    z');
  });
});
