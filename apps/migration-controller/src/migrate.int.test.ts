// End to end: the built controller, as the ServiceAccount of deploy/ with only the RBAC of
// deploy/rbac.yaml and leader election on, runs a plan on a `simulated` Provider to Succeeded
// (every Ready from its own controllers), and `ctrlkit-migrate status` prints its VMs and steps.

import { appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig, testKubeconfigPath } from '@ctrlkit/envtest/vitest';
import { forkliftCrds } from '@ctrlkit/plan-migration';
import type { Plan } from '@ctrlkit/plan-migration/api';
import { PlanFixture } from '@ctrlkit/plan-migration/testing';
import { expect, it } from 'vitest';
import { runBin } from '../test/app-process.js';

it('runs a plan on the simulated source to Succeeded; ctrlkit-migrate status shows every VM and step', async () => {
  const kubeConfig = testKubeConfig();
  await installCRDs(kubeConfig, [...forkliftCrds]);
  const namespace = await createTestNamespace(kubeConfig, 'mc-plan-');
  const target = await createTestNamespace(kubeConfig, 'mc-target-');
  const fixture = new PlanFixture({ client: kubeConfig, namespace });
  const storageClass = `sc-${namespace}`;
  await fixture.createStorageClass(storageClass);
  await fixture.createProvidersAndMaps({
    source: {
      type: 'simulated',
      settings: { vms: '3', diskMiB: '200', copyRateMiBPerSecond: '2000' },
    },
    storageClass,
  });
  await fixture.createPlan('plan', {
    targetNamespace: target,
    vms: [{ id: 'vm-0' }, { id: 'vm-1' }, { name: 'vm-2' }],
  });
  const status = (plan: string) =>
    runBin('migrate', ['status', plan, '-n', namespace, '--kubeconfig', testKubeconfigPath()]);
  const before = await status('plan');
  expect(before.code).toBe(0);
  expect(before.stdout).toContain('No VM has been migrated yet');

  const app = await startApp(appPackage('@ctrlkit/migration-controller', import.meta.url), {
    args: [
      '--leader-elect',
      '--leader-election-namespace=ctrlkit-migration',
      '--metrics-addr=0',
      '--healthz-addr=0',
      '--destination=configmap',
    ],
  });
  try {
    const readPlan = () => fixture.read<Plan>('Plan', 'plan');
    const has = (p: Plan, type: string) =>
      (p.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
    await waitFor('the plan Ready', async () => has(await readPlan(), 'Ready'));
    await fixture.create('Migration', 'run-1', { plan: { name: 'plan' } });
    await waitFor('the plan Succeeded', async () => has(await readPlan(), 'Succeeded'), {
      timeoutMs: 90_000,
    });

    const after = await status('plan');
    expect(after.code).toBe(0);
    const lines = after.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Plan ${namespace}/plan: .*Ready.*Succeeded`));
    expect(after.stdout).toContain('VMs: 3, 3 Succeeded');
    for (const vm of ['vm-0', 'vm-1', 'vm-2']) {
      const rows = lines.filter((l) => l.startsWith(`${vm} `));
      expect(rows.length).toBeGreaterThan(1);
      expect(rows.every((r) => r.includes(' Completed '))).toBe(true);
      expect(rows.some((r) => r.includes('DiskTransfer') && r.includes('200/200 MB'))).toBe(true);
    }
    const missing = await status('nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`plan ${namespace}/nope not found`);
  } finally {
    // The RBAC of deploy/ sufficed: stop() fails on a request the apiserver refused.
    expect(await app.stop()).toBe(0);
  }
  expect(app.logs.filter((l) => /forbidden/i.test(l))).toEqual([]);
  expect(app.logs.some((l) => l.includes('"msg":"migration controller stopped"'))).toBe(true);
}, 150_000);
