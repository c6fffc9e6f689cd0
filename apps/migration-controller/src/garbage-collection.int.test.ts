// Garbage collection of a Plan's objects on a real cluster (one control plane with
// kube-scheduler and kube-controller-manager for this file, the CRDs installed before them so
// the garbage collector watches them from its start). The controller, as deploy/'s
// ServiceAccount, migrates two simulated VMs to KubeVirt with a PostHook each; CDI, KubeVirt
// and the kubelet are simulators, the hook Jobs run under the real Job controller (their pods
// held running). A VM canceled with deleteVmOnFailMigration has its VirtualMachine deleted in
// the foreground: the collector takes the PVCs it owns first. Deleting the Plan during the
// PostHook lets the collector delete what our owner references say the Plan owns (the
// Migration; the hook Job's ConfigMap and pod) and keep what they do not: the VirtualMachine
// and the PVCs it owns. The audit log names who deleted what.
import { appPackage, SERVICE_ACCOUNT_AUDIT_POLICY, startApp } from '@ctrlkit/app-testing';
import { noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { COMPONENTS, createTestNamespace, readAuditLog, startControlPlane } from '@ctrlkit/envtest';
import { forkliftCrds } from '@ctrlkit/plan-migration';
import type { Plan } from '@ctrlkit/plan-migration/api';
import { kubevirtCrds, type VirtualMachine } from '@ctrlkit/plan-migration/kubevirt';
import {
  CdiSimulator,
  KubeVirtSimulator,
  PlanFixture,
  PodJobSimulator,
} from '@ctrlkit/plan-migration/testing';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { createClient } from '@ctrlkit/runtime/client';
import type {
  V1ConfigMap,
  V1Job,
  V1OwnerReference,
  V1PersistentVolumeClaim,
  V1Pod,
} from '@kubernetes/client-node';
import { expect, it } from 'vitest';

const GARBAGE_COLLECTOR = 'system:serviceaccount:kube-system:generic-garbage-collector';
const VMS = { group: 'kubevirt.io', version: 'v1', resource: 'virtualmachines' };
const JOBS = 'batch/v1/jobs';
/** client-node's custom object coordinates (PlanFixture.path) as the one client's resource. */
const resourceOf = (path: { group: string; version: string; plural: string }) => ({
  group: path.group,
  version: path.version,
  resource: path.plural,
});
const WAIT = { timeoutMs: 90_000, intervalMs: 250 };

it('a canceled VM: its VirtualMachine deleted in the foreground takes its PVCs; the Plan deleted during its PostHook: the garbage collector removes the Migration and what the hook Job owns, and keeps the VirtualMachine and its PVCs', async () => {
  const plane = await startControlPlane({
    components: COMPONENTS,
    crds: [...forkliftCrds, ...kubevirtCrds],
    // The apps' requests, and every delete the garbage collector makes.
    auditPolicy: {
      ...SERVICE_ACCOUNT_AUDIT_POLICY,
      rules: [
        { level: 'Metadata', users: [GARBAGE_COLLECTOR], verbs: ['delete'] },
        ...SERVICE_ACCOUNT_AUDIT_POLICY.rules,
      ],
    },
    logger: noopLogger,
  });
  const stop = new AbortController();
  try {
    const { kubeConfig } = plane;
    const client = createClient(kubeConfig);
    const namespace = await createTestNamespace(kubeConfig, 'gc-');
    // Not there yet: the controller creates it.
    const target = `gc-target-${Math.random().toString(36).slice(2, 8)}`;
    const fixture = new PlanFixture({ client: kubeConfig, namespace });
    const storageClass = `sc-${namespace}`;
    await fixture.createStorageClass(storageClass);
    const factory = new SharedInformerFactory(kubeConfig, {});
    for (const sim of [
      new CdiSimulator({ kubeConfig, informerFactory: factory, stepMs: 20 }),
      new KubeVirtSimulator({ kubeConfig, informerFactory: factory, stepMs: 20 }),
      new PodJobSimulator({
        kubeConfig,
        informerFactory: factory,
        stepMs: 20,
        jobs: false,
        // The hook's pod (the real Job controller's) runs until the Plan goes.
        podHeld: (pod) => (pod.metadata?.ownerReferences ?? []).some((r) => r.kind === 'Job'),
      }),
    ]) {
      void sim.run(stop.signal);
    }
    factory.start(stop.signal);

    await fixture.createProvidersAndMaps({
      source: {
        type: 'simulated',
        settings: { vms: '2', diskMiB: '100', copyRateMiBPerSecond: '1000' },
      },
      storageClass,
    });
    await fixture.create('Hook', 'post', {
      image: 'quay.io/konveyor/hook-runner:latest',
      playbook: btoa('- hosts: localhost\n  tasks: []\n'),
    });
    await fixture.createPlan('plan', {
      targetNamespace: target,
      vms: ['vm-0', 'vm-1'].map((id) => ({
        id,
        hooks: [{ step: 'PostHook', hook: { name: 'post' } }],
        // A canceled VM's VirtualMachine is deleted (vm-1, below).
        deleteVmOnFailMigration: true,
      })),
    });

    const app = await startApp(appPackage('@ctrlkit/migration-controller', import.meta.url), {
      cluster: plane,
      args: [
        '--leader-elect',
        '--leader-election-namespace=ctrlkit-migration',
        '--metrics-addr=0',
        '--healthz-addr=0',
      ],
    });
    try {
      const readPlan = () => fixture.read<Plan>('Plan', 'plan');
      await waitFor('the plan Ready', async () =>
        (await readPlan()).status?.conditions?.some((c) => c.type === 'Ready'),
      );
      await fixture.create('Migration', 'run-1', { plan: { name: 'plan' } });
      await waitFor('both VMs at their PostHook', readPlan, {
        ...WAIT,
        until: (p) => (p.status?.migration?.vms ?? []).every((v) => v.phase === 'PostHook'),
      });
      const jobs = await waitFor(
        "the hook Jobs' pods running",
        async () => (await client.list<V1Job>(JOBS, { namespace })).items,
        { ...WAIT, until: (j) => j.length === 2 && j.every((x) => x.status?.active === 1) },
      );
      const vmsOf = async () =>
        (
          (await client.list(VMS, { namespace: target })) as unknown as {
            items: VirtualMachine[];
          }
        ).items;
      const pvcsOf = async (vm: VirtualMachine) =>
        (
          await client.list<V1PersistentVolumeClaim>('persistentvolumeclaims', {
            namespace: target,
          })
        ).items.filter((p) =>
          (p.metadata?.ownerReferences ?? []).some((r) => r.uid === vm.metadata.uid),
        );
      const byId = async (id: string) =>
        (await vmsOf()).find((v) => v.metadata.labels?.vmID === id) as VirtualMachine;

      // vm-1 canceled: its VirtualMachine is deleted in the foreground, so the garbage
      // collector deletes the PVCs it owns (blockOwnerDeletion) before it.
      const canceled = await byId('vm-1');
      expect(await pvcsOf(canceled)).not.toEqual([]);
      let offset = (await readAuditLog(plane.auditLogPath ?? '')).nextOffset;
      await client.patch(
        resourceOf(fixture.path('Migration')),
        'run-1',
        { spec: { cancel: [{ id: 'vm-1' }] } },
        { namespace },
      );
      await waitFor(
        'the canceled VirtualMachine and its PVCs gone',
        async () => {
          const vm = (await vmsOf()).find((v) => v.metadata.uid === canceled.metadata.uid);
          return vm === undefined && (await pvcsOf(canceled)).length === 0;
        },
        WAIT,
      );
      const collectedForCanceled = (await readAuditLog(plane.auditLogPath ?? '', offset)).events
        .filter((e) => e.user.username === GARBAGE_COLLECTOR && e.stage === 'ResponseComplete')
        .map((e) => e.objectRef?.resource);
      expect(collectedForCanceled).toContain('persistentvolumeclaims');
      const job = jobs.find((j) => j.metadata?.labels?.vmID === 'vm-0');

      // What the Plan owns, by our owner references.
      const plan = await readPlan();
      const ownedByPlan = (refs: V1OwnerReference[] | undefined) =>
        (refs ?? []).some((r) => r.uid === plan.metadata.uid && r.kind === 'Plan');
      const migration = (await client.get(resourceOf(fixture.path('Migration')), 'run-1', {
        namespace,
      })) as { metadata: { uid: string; ownerReferences?: V1OwnerReference[] } };
      expect(ownedByPlan(migration.metadata.ownerReferences)).toBe(true);
      expect(ownedByPlan(job?.metadata?.ownerReferences)).toBe(true);
      // What it does not: vm-0's VirtualMachine, and the disk PVCs the VirtualMachine owns.
      const vm = await byId('vm-0');
      const pvcs = await pvcsOf(vm);
      expect(pvcs.length).toBeGreaterThan(0);
      for (const pvc of pvcs) {
        expect(pvc.metadata?.ownerReferences?.map((r) => r.uid)).toEqual([vm.metadata.uid]);
      }

      offset = (await readAuditLog(plane.auditLogPath ?? '')).nextOffset;
      await client.delete(resourceOf(fixture.path('Plan')), 'plan', { namespace });
      await waitFor(
        'the Plan, its Migration and its hook Job gone',
        async () => {
          const [plans, migrations, jobs] = await Promise.all([
            client.list(resourceOf(fixture.path('Plan')), { namespace }),
            client.list(resourceOf(fixture.path('Migration')), { namespace }),
            client.list<V1Job>(JOBS, { namespace }),
          ]);
          return (
            [plans, migrations].every((l) => (l as { items: [] }).items.length === 0) &&
            jobs.items.length === 0
          );
        },
        WAIT,
      );
      // The hook's ConfigMap and pod, owned by its Job, go with it.
      await waitFor(
        "the hook Job's ConfigMap and pod gone",
        async () => {
          const [maps, pods] = await Promise.all([
            client.list<V1ConfigMap>('configmaps', { namespace }),
            client.list<V1Pod>('pods', { namespace }),
          ]);
          const ownedByJob = (refs: V1OwnerReference[] | undefined) =>
            (refs ?? []).some((r) => r.kind === 'Job');
          return [...maps.items, ...pods.items].every(
            (o) => !ownedByJob(o.metadata?.ownerReferences),
          );
        },
        WAIT,
      );
      const collected = (await readAuditLog(plane.auditLogPath ?? '', offset)).events
        .filter((e) => e.user.username === GARBAGE_COLLECTOR && e.stage === 'ResponseComplete')
        .map((e) => `${e.objectRef?.resource}/${e.objectRef?.name}`);
      // The Migration only the garbage collector deletes; the hook Job the Plan's finalizer
      // deletes too (its orphan sweep, Background), and the collector then takes the Job's
      // ConfigMap and pod, which the Job owns.
      expect(collected).toContain('migrations/run-1');
      expect(collected.filter((c) => c.startsWith('configmaps/') || c.startsWith('pods/'))).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^configmaps\/plan-vm-0-posthook-/),
          expect.stringMatching(new RegExp(`^pods/${job?.metadata?.name}-`)),
        ]),
      );
      // Kept: the VirtualMachine and its PVCs, untouched by the garbage collector.
      expect(
        collected.filter((c) => /^(virtualmachines|persistentvolumeclaims)\//.test(c)),
      ).toEqual([]);
      const kept = (await client.get(VMS, vm.metadata.name ?? '', {
        namespace: target,
      })) as unknown as VirtualMachine;
      expect(kept.metadata.uid).toBe(vm.metadata.uid);
      expect(kept.metadata.deletionTimestamp).toBeUndefined();
      const left = await pvcsOf(vm);
      expect(left.map((p) => p.metadata?.uid).sort()).toEqual(
        pvcs.map((p) => p.metadata?.uid).sort(),
      );
      expect(left.every((p) => p.metadata?.deletionTimestamp === undefined)).toBe(true);
    } finally {
      expect(await app.stop()).toBe(0);
    }
  } finally {
    stop.abort();
    await plane.stop();
  }
});
