import { realClock } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import type { Migration } from '../api/migration.js';
import type { Plan } from '../api/plan.js';
import { SimulatedSource } from '../simulated-source.js';
import { validateMigration } from './migration-controller.js';

const vm = (id: string, name: string) => ({
  id,
  name,
  powerState: 'On' as const,
  networks: [],
  disks: [],
});
const inventory = new SimulatedSource({
  clock: realClock,
  vms: [vm('vm-1', 'web'), vm('vm-2', 'db'), vm('vm-3', 'db')],
});
const migration = (spec: Partial<Migration['spec']>): Migration =>
  ({ metadata: { name: 'm', namespace: 'ns' }, spec }) as Migration;
const plan = (ready: boolean): Plan =>
  ({
    metadata: { name: 'p', namespace: 'ns' },
    spec: {},
    status: {
      conditions: ready
        ? [
            {
              type: 'Ready',
              status: 'True',
              category: 'Required',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ]
        : [],
    },
  }) as unknown as Plan;
const summary = (
  cs: Array<{ type: string; reason?: string; category: string; items?: string[] }>,
) => cs.map((c) => [c.type, c.reason ?? '', c.category, ...(c.items ?? [])].join('|'));

describe('validateMigration', () => {
  it('PlanNotValid: NotSet without spec.plan, NotFound when the plan does not exist', async () => {
    expect(
      summary(await validateMigration({ migration: migration({}), plan: undefined, inventory })),
    ).toEqual(['PlanNotValid|NotSet|Critical']);
    expect(
      summary(
        await validateMigration({
          migration: migration({ plan: { name: 'p' } }),
          plan: undefined,
          inventory,
        }),
      ),
    ).toEqual(['PlanNotValid|NotFound|Critical']);
  });

  it('PlanNotReady when the plan lacks Ready; nothing else is checked', async () => {
    const m = migration({ plan: { name: 'p' }, cancel: [{ id: 'nope' }] });
    expect(
      summary(await validateMigration({ migration: m, plan: plan(false), inventory })),
    ).toEqual(['PlanNotReady|NotFound|Critical']);
  });

  it('unresolved cancel refs: VMNotFound and VMNotUnique (Warn) with the refs; Ready all the same', async () => {
    const m = migration({
      plan: { name: 'p' },
      cancel: [{ id: 'vm-1' }, { id: 'gone' }, { name: 'web' }, { name: 'db' }, { name: 'nobody' }],
    });
    const cs = await validateMigration({ migration: m, plan: plan(true), inventory });
    expect(summary(cs)).toEqual([
      "VMNotFound|NotFound|Warn| id:gone name:'' | id: name:'nobody' ",
      "VMNotUnique|Ambiguous|Warn| id: name:'db' ",
      'Ready||Required',
    ]);
  });

  it('a Ready plan and resolvable cancel refs: only Ready', async () => {
    const m = migration({ plan: { name: 'p' }, cancel: [{ id: 'vm-2' }, { name: 'web' }] });
    expect(summary(await validateMigration({ migration: m, plan: plan(true), inventory }))).toEqual(
      ['Ready||Required'],
    );
  });
});
