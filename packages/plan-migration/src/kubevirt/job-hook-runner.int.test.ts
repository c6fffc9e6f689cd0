import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { patchStatus } from '@ctrlkit/runtime';
import { createClient } from '@ctrlkit/runtime/client';
import type { KubeConfig } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Hook } from '../api/hook.js';
import type { HookRef, Plan, VMStatus } from '../api/plan.js';
import { forkliftCrds } from '../crds.js';
import { type BatchApi, batchApi } from '../internal/kube-api.js';
import { PlanFixture } from '../testing/plan-fixture.js';
import { HOOK_RETRY_LIMIT_EXCEEDED, JobHookRunner } from './job-hook-runner.js';

let kubeConfig: KubeConfig;
let batch: BatchApi;

beforeAll(async () => {
  kubeConfig = testKubeConfig();
  batch = batchApi(createClient(kubeConfig));
  await installCRDs(kubeConfig, [...forkliftCrds]);
});

async function fixture() {
  const namespace = await createTestNamespace(kubeConfig, 'hook-');
  const objects = new PlanFixture({ client: kubeConfig, namespace });
  const hook = (await objects.create('Hook', 'h', {
    image: 'quay.io/konveyor/hook-runner',
    serviceAccount: 'hooks',
    deadline: 30,
  })) as Hook;
  const plan = (await objects.create('Plan', 'p', {
    provider: { source: { name: 's' }, destination: { name: 'd' } },
    targetNamespace: 'target',
    map: { network: { name: 'n' } },
    vms: [{ id: 'vm-0' }],
  })) as Plan;
  const vm: VMStatus = { id: 'vm-0', phase: 'PostHook', pipeline: [] };
  const ref: HookRef = { step: 'PostHook', hook: { name: 'h' } };
  return { namespace, hook, plan, vm, ref };
}

describe('JobHookRunner', () => {
  it('creates one Job per VM and step, and fails the step once failures exceed hookRetry', async () => {
    const { namespace, hook, plan, vm, ref } = await fixture();
    const runner = new JobHookRunner({ kubeConfig, hookRetry: 2 });
    expect(await runner.run(plan, vm, ref)).toEqual({ done: false });
    expect(await runner.run(plan, vm, ref)).toEqual({ done: false });
    const jobs = (await batch.listNamespacedJob({ namespace })).items;
    expect(jobs).toHaveLength(1);
    const job = jobs[0];
    expect(job?.metadata?.name).toMatch(/^p-vm-0-posthook-/);
    expect(job?.metadata?.labels).toMatchObject({ step: 'PostHook', hook: hook.metadata.uid });
    expect(job?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Plan', name: 'p' });
    const pod = job?.spec?.template.spec;
    expect(pod?.serviceAccountName).toBe('hooks');
    expect(pod?.activeDeadlineSeconds).toBe(30);
    expect(pod?.containers[0]?.command).toBeUndefined(); // no playbook: the image's own entrypoint
    const now = new Date().toISOString();
    await patchStatus(
      kubeConfig,
      { ...job, apiVersion: 'batch/v1', kind: 'Job' },
      {
        startTime: now,
        failed: 2,
      },
    );
    expect(await runner.run(plan, vm, ref)).toEqual({ done: false });
    await patchStatus(kubeConfig, { ...job, apiVersion: 'batch/v1', kind: 'Job' }, { failed: 3 });
    expect(await runner.run(plan, vm, ref)).toEqual({
      done: true,
      failed: HOOK_RETRY_LIMIT_EXCEEDED,
    });
  });

  it('a missing Hook fails the step', async () => {
    const { plan, vm } = await fixture();
    const runner = new JobHookRunner({ kubeConfig });
    expect(await runner.run(plan, vm, { step: 'PreHook', hook: { name: 'gone' } })).toEqual({
      done: true,
      failed: 'Hook not found.',
    });
  });
});
