import { errorMessage, realClock, statusCode } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { createClient } from '@ctrlkit/runtime/client';
import type { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Migration } from './api/migration.js';
import type { Plan } from './api/plan.js';
import { LABEL_RESOURCE } from './configmap-destination.js';
import { API_VERSION, forkliftCrds, GROUP, PLURALS, VERSION } from './crds.js';
import { type CoreApi, type CustomApi, coreApi, customApi } from './internal/kube-api.js';
import { LABEL_PLAN_NAME, LABEL_PLAN_NAMESPACE } from './labels.js';
import { PLAN_FINALIZER, PlanController } from './plan-controller.js';
import { SimulatedSource } from './simulated-source.js';
import { PlanFixture } from './testing/plan-fixture.js';

let kubeConfig: KubeConfig;
let custom: CustomApi;
let core: CoreApi;
const stops: AbortController[] = [];

beforeAll(async () => {
  kubeConfig = testKubeConfig();
  custom = customApi(createClient(kubeConfig));
  core = coreApi(createClient(kubeConfig));
  await installCRDs(kubeConfig, [...forkliftCrds]);
});

afterEach(() => {
  for (const s of stops.splice(0)) s.abort();
});

const trueTypes = (o: { status?: { conditions?: Array<{ type: string; status: string }> } }) =>
  (o.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type);

/** Providers, maps (Ready, as their controllers would mark them), a simulated source and a running controller. */
async function setup(options: {
  vms: number;
  diskMiB?: number;
  rate?: number;
  diskMiBOf?: (i: number) => number;
}) {
  const namespace = await createTestNamespace(kubeConfig, 'plan-');
  const target = await createTestNamespace(kubeConfig, 'target-');
  const fixture = new PlanFixture({ client: kubeConfig, namespace });
  await fixture.createProvidersAndMaps({
    source: { type: 'simulated' },
    storageClass: 'standard',
    ready: true,
  });
  // A second map, for the Plan to switch to mid-run.
  await fixture.create('NetworkMap', 'net2', {
    provider: { source: { name: 'src' }, destination: { name: 'host' } },
    map: [{ source: { id: 'net-1' }, destination: { type: 'pod' } }],
  });
  await fixture.markReady('NetworkMap', 'net2');
  const source = new SimulatedSource({
    clock: realClock,
    copyRateMiBPerSecond: options.rate ?? 2000,
    vms: Array.from({ length: options.vms }, (_, i) => ({
      id: `vm-${i}`,
      name: `vm-${i}`,
      powerState: 'On' as const,
      networks: ['net-1'],
      disks: [
        {
          id: 'disk-0',
          capacityMiB: options.diskMiBOf?.(i) ?? options.diskMiB ?? 100,
          datastore: 'ds-1',
        },
      ],
    })),
  });
  const registry = new Registry();
  const start = () => {
    const stop = new AbortController();
    stops.push(stop);
    const controller = new PlanController({
      kubeConfig,
      sources: (p) =>
        p.spec.type === 'simulated'
          ? {
              inventory: source,
              client: source,
              builder: source,
              validator: (plan, maps) => source.validator(plan, maps),
            }
          : undefined,
      pollIntervalMs: 100,
      registry,
    });
    const done = controller.run(stop.signal);
    return { controller, stop, done };
  };
  const plan = async (vms = Array.from({ length: options.vms }, (_, i) => ({ id: `vm-${i}` }))) =>
    fixture.createPlan('plan', { targetNamespace: target, vms });
  let seq = 0;
  const migration = async (spec: object = {}) => {
    const name = `m${++seq}`;
    await fixture.create('Migration', name, { plan: { name: 'plan' }, ...spec });
    return name;
  };
  const readPlan = () => fixture.read<Plan>('Plan', 'plan');
  const untilPlan = (what: string, ok: (p: Plan) => boolean, timeoutMs?: number) =>
    waitFor(what, readPlan, { until: ok, timeoutMs });
  const targetObjects = async (resource: 'vm' | 'disk') =>
    (
      await core.listNamespacedConfigMap({
        namespace: target,
        labelSelector: `${LABEL_RESOURCE}=${resource}`,
      })
    ).items;
  return {
    namespace,
    target,
    fixture,
    source,
    registry,
    start,
    plan,
    migration,
    readPlan,
    untilPlan,
    targetObjects,
  };
}

const vmTypes = (p: Plan, id: string) =>
  trueTypes({ status: p.status?.migration?.vms?.find((v) => v.id === id) ?? {} } as never);
const vmStatus = (p: Plan, id: string) => p.status?.migration?.vms?.find((v) => v.id === id);

describe('PlanController against a real apiserver', () => {
  it('a 10-VM plan on the simulated provider runs to Succeeded; VMs are created labelled in the target namespace', async () => {
    const t = await setup({ vms: 10 });
    const { controller } = t.start();
    await t.plan();
    await t.untilPlan('Ready', (p) => trueTypes(p).includes('Ready'));
    const m = await t.migration();
    const p = await t.untilPlan('Succeeded', (p) => trueTypes(p).includes('Succeeded'));
    expect(trueTypes(p)).not.toContain('Executing');
    for (let i = 0; i < 10; i++) expect(vmTypes(p, `vm-${i}`)).toEqual(['Succeeded']);
    const vms = await t.targetObjects('vm');
    expect(vms.map((v) => v.metadata?.name).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `vm-${i}`).sort(),
    );
    for (const v of vms) {
      expect(v.metadata?.labels?.[LABEL_PLAN_NAME]).toBe('plan');
      expect(v.metadata?.labels?.[LABEL_PLAN_NAMESPACE]).toBe(t.namespace);
    }
    const mig = await waitFor('Migration mirror', () => t.fixture.read<Migration>('Migration', m), {
      until: (x) => trueTypes(x).includes('Succeeded'),
    });
    expect(mig.status?.vms).toHaveLength(10);
    expect(controller.statusWrites).toBeGreaterThan(0);
    expect(await t.registry.getSingleMetricAsString('ctrlkit_plan_migrations_total')).toContain(
      'result="Succeeded"} 1',
    );
  });

  it("one VM's disk copy fails: only it is Failed, the plan Failed; a second Migration re-runs only that VM", async () => {
    const t = await setup({ vms: 4 });
    t.source.failDiskCopy('vm-2', 'disk-0', 'importer restart limit exceeded', 10);
    t.start();
    await t.plan();
    await t.migration();
    const failed = await t.untilPlan('Failed', (p) => trueTypes(p).includes('Failed'));
    expect(vmTypes(failed, 'vm-2')).toEqual(['Failed']);
    expect(vmStatus(failed, 'vm-2')?.error?.reasons).toEqual(['importer restart limit exceeded']);
    for (const id of ['vm-0', 'vm-1', 'vm-3']) expect(vmTypes(failed, id)).toEqual(['Succeeded']);
    const starts = t.source.calls.get('startTransfer');
    t.source.clearFailures('vm-2');
    await t.migration();
    const p = await t.untilPlan('Succeeded', (p) => trueTypes(p).includes('Succeeded'));
    expect(vmTypes(p, 'vm-2')).toEqual(['Succeeded']);
    expect(vmStatus(p, 'vm-0')?.started).toBe(vmStatus(failed, 'vm-0')?.started);
    expect(t.source.calls.get('startTransfer')).toBe((starts ?? 0) + 1);
    expect(p.status?.migration?.history).toHaveLength(2);
  });

  it('a VM canceled mid-copy ends Canceled and its disks are cleaned up', async () => {
    const t = await setup({ vms: 2, diskMiB: 100_000, rate: 1000 });
    t.start();
    await t.plan();
    const m = await t.migration();
    await t.untilPlan('vm-1 copying', (p) => vmStatus(p, 'vm-1')?.phase === 'CopyDisks');
    expect((await t.targetObjects('disk')).length).toBe(2);
    await custom.patchNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURALS.Migration,
      namespace: t.namespace,
      name: m,
      body: { spec: { cancel: [{ id: 'vm-1' }] } },
    });
    const p = await t.untilPlan(
      'vm-1 Canceled',
      (p) =>
        vmTypes(p, 'vm-1').includes('Canceled') && vmStatus(p, 'vm-1')?.completed !== undefined,
    );
    expect(vmStatus(p, 'vm-1')?.conditions?.find((c) => c.type === 'Canceled')?.reason).toBe(
      'UserRequested',
    );
    await waitFor('vm-1 disks gone', () => t.targetObjects('disk'), {
      until: (d) => d.every((cm) => cm.metadata?.labels?.vmID !== 'vm-1'),
    });
  });

  it('editing the Plan mid-run (another NetworkMap) cancels the snapshot (Modified)', async () => {
    const t = await setup({ vms: 2, diskMiB: 100_000, rate: 1000 });
    t.start();
    await t.plan();
    await t.migration();
    await t.untilPlan('copying', (p) => vmStatus(p, 'vm-0')?.phase === 'CopyDisks');
    await custom.patchNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURALS.Plan,
      namespace: t.namespace,
      name: 'plan',
      body: { spec: { map: { network: { name: 'net2' } } } },
    });
    const p = await t.untilPlan('Canceled', (p) => trueTypes(p).includes('Canceled'));
    expect(
      p.status?.migration?.history?.[0]?.conditions?.find((c) => c.type === 'Canceled')?.reason,
    ).toBe('Modified');
    expect(trueTypes(p)).not.toContain('Executing');
    expect(vmTypes(p, 'vm-0')).toEqual(['Canceled']);
  });

  it('an invalid Plan gets the right conditions and never executes', async () => {
    const t = await setup({ vms: 1 });
    t.start();
    await t.plan([{ id: 'vm-0' }, { id: 'nope' }, { id: 'vm-0' }]);
    await t.migration();
    const p = await t.untilPlan('VMNotFound', (p) => trueTypes(p).includes('VMNotFound'));
    expect(p.status?.conditions?.find((c) => c.type === 'VMNotFound')).toMatchObject({
      reason: 'NotFound',
      category: 'Critical',
      items: [" id:nope name:'' "],
    });
    expect(p.status?.conditions?.find((c) => c.type === 'DuplicateVM')?.reason).toBe('NotUnique');
    expect(trueTypes(p)).not.toContain('Ready');
    await new Promise((resolve) => setTimeout(resolve, 500)); // nothing may start meanwhile
    expect((await t.readPlan()).status?.migration).toBeUndefined();
  });

  it('a controller restarted mid-run resumes without repeating finished phases', async () => {
    const t = await setup({ vms: 3, diskMiB: 1_500, rate: 1000 });
    const first = t.start();
    await t.plan();
    await t.migration();
    await t.untilPlan('copying', (p) =>
      (p.status?.migration?.vms ?? []).some((v) => v.phase === 'CopyDisks'),
    );
    first.stop.abort();
    await first.done;
    const before = await t.readPlan();
    t.start();
    const p = await t.untilPlan('Succeeded', (p) => trueTypes(p).includes('Succeeded'));
    expect(t.source.calls.get('startTransfer')).toBe(3);
    expect(t.source.calls.get('powerOff')).toBe(3);
    for (const vm of before.status?.migration?.vms ?? []) {
      expect(vmStatus(p, vm.id ?? '')?.started).toBe(vm.started);
    }
  });

  it('deleting the Plan cleans up its orphans but keeps the VMs and what they own', async () => {
    const t = await setup({ vms: 2, rate: 1000, diskMiBOf: (i) => (i === 0 ? 100 : 100_000) });
    t.start();
    await t.plan();
    await t.migration();
    await t.untilPlan(
      'vm-0 done, vm-1 copying',
      (p) => vmTypes(p, 'vm-0').includes('Succeeded') && vmStatus(p, 'vm-1')?.phase === 'CopyDisks',
    );
    await custom.deleteNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURALS.Plan,
      namespace: t.namespace,
      name: 'plan',
    });
    const disks = await waitFor('vm-1 disk gone', () => t.targetObjects('disk'), {
      until: (d) => d.every((cm) => cm.metadata?.labels?.vmID !== 'vm-1'),
    });
    expect(disks.map((d) => d.metadata?.labels?.vmID)).toEqual(['vm-0']);
    expect((await t.targetObjects('vm')).map((v) => v.metadata?.name)).toEqual(['vm-0']);
  });

  it('a Plan deleted while the controller is stopped is cleaned up (its finalizer held it) once the controller is back', async () => {
    const t = await setup({ vms: 2, rate: 1000, diskMiBOf: (i) => (i === 0 ? 100 : 100_000) });
    const first = t.start();
    await t.plan();
    await t.migration();
    const running = await t.untilPlan(
      'vm-0 done, vm-1 copying',
      (p) => vmTypes(p, 'vm-0').includes('Succeeded') && vmStatus(p, 'vm-1')?.phase === 'CopyDisks',
    );
    expect(running.metadata.finalizers).toEqual([PLAN_FINALIZER]);
    first.stop.abort();
    await first.done;
    await custom.deleteNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURALS.Plan,
      namespace: t.namespace,
      name: 'plan',
    });
    // Nobody runs the cleanup: the Plan stays, being deleted, and so do vm-1's disks.
    const held = await t.readPlan();
    expect(held.metadata.deletionTimestamp).toBeDefined();
    expect((await t.targetObjects('disk')).map((d) => d.metadata?.labels?.vmID).sort()).toEqual([
      'vm-0',
      'vm-1',
    ]);
    t.start();
    await waitFor(
      'the Plan gone',
      () =>
        t.readPlan().then(
          () => 'present',
          (e: unknown) => statusCode(e),
        ),
      { until: (code) => code === 404 },
    );
    expect((await t.targetObjects('disk')).map((d) => d.metadata?.labels?.vmID)).toEqual(['vm-0']);
    expect((await t.targetObjects('vm')).map((v) => v.metadata?.name)).toEqual(['vm-0']);
  });

  it('the apiserver rejects what the schema can: a targetNamespace that is not DNS-1123', async () => {
    const namespace = await createTestNamespace(kubeConfig, 'schema-');
    const error = await custom
      .createNamespacedCustomObject({
        ...new PlanFixture({ client: kubeConfig, namespace }).path('Plan'),
        body: {
          apiVersion: API_VERSION,
          kind: 'Plan',
          metadata: { name: 'bad' },
          spec: {
            provider: { source: { name: 's' }, destination: { name: 'd' } },
            targetNamespace: 'Bad_NS',
            map: { network: { name: 'n' } },
            vms: [{ id: 'a' }],
          },
        },
      })
      .catch((e: unknown) => e);
    expect(statusCode(error)).toBe(422);
    expect(errorMessage(error)).toContain('spec.targetNamespace');
  });
});
