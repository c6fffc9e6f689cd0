// The first programs of the @packageDocumentation tours, through the entry points.

import { realClock } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import { KubeConfig } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { conditionsOf, type Plan, planStatus } from './api.js';
import { PlanController, SimulatedSource, type SourceAdapter } from './index.js';
import { COLD_ITINERARY, Itinerary } from './pipeline.js';
import { PlanHarness } from './testing.js';

it('the root: a PlanController over a simulated source is built without an API call', () => {
  const vms = [{ id: 'vm-0', name: 'web', powerState: 'On' as const, disks: [], networks: [] }];
  const simulated = new SimulatedSource({ clock: realClock, vms });
  const source: SourceAdapter = {
    inventory: simulated,
    client: simulated,
    builder: simulated,
    validator: (plan, maps) => simulated.validator(plan, maps),
  };
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const controller = new PlanController({
    kubeConfig,
    sources: (provider) => (provider.spec.type === 'simulated' ? source : undefined),
  });
  expect(controller).toBeInstanceOf(PlanController);
});

it('./api: a plan without conditions is not Ready', () => {
  const plan = { metadata: { name: 'p' }, spec: {} } as unknown as Plan;
  expect(conditionsOf(planStatus(plan), realClock).hasCondition('Ready')).toBe(false);
});

it('./pipeline: a cold itinerary keeps PreHook only when the VM has one', () => {
  const withHook = new Itinerary('', COLD_ITINERARY, (flag) => flag === 'HasPreHook');
  const withoutHook = new Itinerary('', COLD_ITINERARY, () => false);
  expect(withHook.list().map((step) => step.name)).toContain('PreHook');
  expect(withoutHook.list().map((step) => step.name)).not.toContain('PreHook');
});

it('./testing: the harness runs a plan to Succeeded', async () => {
  const h = new PlanHarness({
    clock: new FakeClock(),
    vms: 3,
    diskMiB: 1000,
    copyRateMiBPerSecond: 100,
  });
  h.addMigration();
  await h.runToEnd();
  expect(h.planConditions()).toEqual(['Ready', 'Succeeded']);
});
