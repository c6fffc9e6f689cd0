import { describe, expect, it } from 'vitest';
import type { Migration } from './api/migration.js';
import type { Plan } from './api/plan.js';
import {
  migrationPredicate,
  planPredicate,
  plansReferencing,
  referencePredicate,
  requestForMigration,
} from './watches.js';

const plan = (name: string, extra: Partial<Plan['spec']> = {}): Plan => ({
  metadata: { name, namespace: 'ns', generation: 2 },
  spec: {
    provider: { source: { name: 'src' }, destination: { name: 'host', namespace: 'other' } },
    targetNamespace: 't',
    map: { network: { name: 'net' }, storage: { name: 'sto' } },
    vms: [{ id: 'a', hooks: [{ step: 'PreHook', hook: { name: 'h' } }] }],
    ...extra,
  },
});

describe('watches', () => {
  it('PlanPredicate: only when observedGeneration < generation', () => {
    const p = plan('p');
    expect(planPredicate(p)).toBe(true);
    p.status = { observedGeneration: 2 };
    expect(planPredicate(p)).toBe(false);
  });

  it('references pass once their controller observed the generation', () => {
    expect(
      referencePredicate({ metadata: { generation: 3 }, status: { observedGeneration: 3 } }),
    ).toBe(true);
    expect(
      referencePredicate({ metadata: { generation: 3 }, status: { observedGeneration: 2 } }),
    ).toBe(false);
  });

  it('RequestForMigration maps a Migration to its plan, defaulting the namespace', () => {
    const m = {
      metadata: { namespace: 'ns', generation: 1 },
      spec: { plan: { name: 'p' } },
    } as Migration;
    expect(requestForMigration(m)).toEqual(['ns/p']);
    expect(requestForMigration({ ...m, spec: { plan: { name: 'p', namespace: 'x' } } })).toEqual([
      'x/p',
    ]);
    expect(migrationPredicate(m, { ...m, metadata: { ...m.metadata, generation: 1 } })).toBe(false);
    expect(migrationPredicate(m, { ...m, metadata: { ...m.metadata, generation: 2 } })).toBe(true);
    expect(migrationPredicate(undefined, m)).toBe(true);
  });

  it('providers, maps and hooks map to the plans that reference them', () => {
    const plans = [plan('a'), plan('b', { map: { network: { name: 'net2' } } })];
    expect(
      plansReferencing('Provider', { metadata: { namespace: 'ns', name: 'src' } }, plans),
    ).toEqual(['ns/a', 'ns/b']);
    expect(
      plansReferencing('Provider', { metadata: { namespace: 'other', name: 'host' } }, plans),
    ).toEqual(['ns/a', 'ns/b']);
    expect(
      plansReferencing('Provider', { metadata: { namespace: 'ns', name: 'host' } }, plans),
    ).toEqual([]);
    expect(
      plansReferencing('NetworkMap', { metadata: { namespace: 'ns', name: 'net2' } }, plans),
    ).toEqual(['ns/b']);
    expect(
      plansReferencing('StorageMap', { metadata: { namespace: 'ns', name: 'sto' } }, plans),
    ).toEqual(['ns/a']);
    expect(plansReferencing('Hook', { metadata: { namespace: 'ns', name: 'h' } }, plans)).toEqual([
      'ns/a',
      'ns/b',
    ]);
  });
});
