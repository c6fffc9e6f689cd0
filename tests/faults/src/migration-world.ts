//! The migration controller's world in the fault suite: a 20-VM OVA share, the simulators of what envtest lacks, a plan per case, and its measure.

import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { type AppCluster, type AppProcess, appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import {
  type AuditEvent,
  type ControlPlane,
  createTestNamespace,
  installCRDs,
} from '@ctrlkit/envtest';
import { forkliftCrds } from '@ctrlkit/plan-migration';
import type { Plan } from '@ctrlkit/plan-migration/api';
import { kubevirtCrds } from '@ctrlkit/plan-migration/kubevirt';
import { OvaInventory } from '@ctrlkit/plan-migration/ova';
import {
  CdiSimulator,
  KubeVirtSimulator,
  makeCatalogDir,
  PlanFixture,
  PodJobSimulator,
  VIRTUALBOX_OVF,
  writeCatalogFiles,
} from '@ctrlkit/plan-migration/testing';
import { SharedInformerFactory } from '@ctrlkit/runtime';
import { createClient, type KubeObject } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import { expect } from 'vitest';
import {
  type AppEndpoints,
  describeSample,
  freeEndpoints,
  healthFigures,
  healthy,
  healthyAfter,
  type pollHealth,
} from './app-health.js';
import { AFTER_MS, expectBoundedMemory, requestFigures, requestsSince, rssMb } from './harness.js';
import { type FaultResult, recordResult } from './results.js';

/** VMs in each case's plan. */
export const VM_COUNT = 20;
/** VMs migrated at once (`--max-vm-inflight`): the plan runs in waves, so faults land mid-run. */
const MAX_VM_INFLIGHT = 10;
/** How long the simulated virt-v2v run of one VM takes (its conversion pod stays Running). */
const CONVERSION_MS = 3_000;
/** The destination objects counted per VM: each must be created once. */
const DESTINATION_KINDS = ['virtualmachines', 'datavolumes', 'pods'] as const;

const app = appPackage('@ctrlkit/migration-controller', import.meta.url);
const vmName = (i: number) => `vm-${String(i).padStart(2, '0')}`;

/**
 * SIMULATED source side of a VM's migration, which the test drives: the OVA share (a folder
 * the app reads as its NFS mount) and the virt-v2v conversion reading it (each conversion
 * pod is held Running for `conversionMs`, and all of them while `hungUntil` is ahead).
 */
export interface SourceSimulator {
  conversionMs: number;
  hungUntil: number;
  /** Takes the share away (reads of it fail) until the returned function puts it back. */
  takeShareAway(server: string): Promise<() => Promise<void>>;
}

/** The world the cases share: the plane, the share root, the simulators and what they saw. */
export interface MigrationWorld {
  plane: ControlPlane;
  /** `--ova-catalog-path`: one share per server under it. */
  catalogRoot: string;
  source: SourceSimulator;
  /** Destination objects seen, by kind, `namespace/vmID` → UIDs (a second UID is a duplicate). */
  seen: Record<(typeof DESTINATION_KINDS)[number], Map<string, Set<string>>>;
  stop(): Promise<void>;
}

/** Installs the CRDs, writes the shares of `servers` (20 VMs each), and runs the simulators of CDI, KubeVirt and the kubelet. */
export async function startMigrationWorld(
  plane: ControlPlane,
  servers: string[],
): Promise<MigrationWorld> {
  const { kubeConfig } = plane;
  await installCRDs(kubeConfig, [...forkliftCrds, ...kubevirtCrds]);
  const client = createClient(kubeConfig);
  await client.create('storage.k8s.io/v1/storageclasses', {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'standard' },
    provisioner: 'example.com/none',
  });
  client.close();
  const catalogRoot = await makeCatalogDir();
  await writeShares(catalogRoot, servers);
  const source: SourceSimulator = {
    conversionMs: CONVERSION_MS,
    hungUntil: 0,
    async takeShareAway(server) {
      const share = shareOf(catalogRoot, server);
      await rename(share, `${share}.away`);
      return () => rename(`${share}.away`, share);
    },
  };
  const stop = new AbortController();
  const factory = new SharedInformerFactory(kubeConfig, {});
  const held = (pod: V1Pod) =>
    Date.now() < source.hungUntil ||
    Date.now() - Date.parse(String(pod.metadata?.creationTimestamp)) < source.conversionMs;
  const sims = [
    new CdiSimulator({ kubeConfig, informerFactory: factory, stepMs: 50 }),
    new KubeVirtSimulator({ kubeConfig, informerFactory: factory, stepMs: 50 }),
    new PodJobSimulator({ kubeConfig, informerFactory: factory, stepMs: 250, podHeld: held }),
  ];
  const seen = Object.fromEntries(
    DESTINATION_KINDS.map((k) => [k, new Map<string, Set<string>>()]),
  ) as MigrationWorld['seen'];
  const resources = {
    virtualmachines: 'kubevirt.io/v1/virtualmachines',
    datavolumes: 'cdi.kubevirt.io/v1beta1/datavolumes',
    pods: 'pods',
  };
  for (const kind of DESTINATION_KINDS) {
    const keep = (o: KubeObject) => {
      const vm = o.metadata?.labels?.vmID ?? o.metadata?.name ?? '';
      const key = `${o.metadata?.namespace}/${vm}`;
      const uids = seen[kind].get(key) ?? new Set<string>();
      uids.add(o.metadata?.uid ?? '');
      seen[kind].set(key, uids);
    };
    factory
      .forResource(resources[kind])
      .addEventHandler({ onAdd: keep, onUpdate: (_, o) => keep(o) });
  }
  const running = sims.map((s) => s.run(stop.signal));
  factory.start(stop.signal);
  return {
    plane,
    catalogRoot,
    source,
    seen,
    async stop() {
      stop.abort();
      await Promise.allSettled(running);
    },
  };
}

/** Writes the share of each of `servers`: {@link VM_COUNT} VirtualBox OVAs, one small disk each. */
async function writeShares(catalogRoot: string, servers: string[]): Promise<void> {
  for (const server of servers) {
    const disk = (name: string) => ({ name, content: new Uint8Array(512) });
    const files = Object.fromEntries(
      Array.from({ length: VM_COUNT }, (_, i) => {
        const ovf = VIRTUALBOX_OVF.replaceAll('ubuntu', vmName(i)).replace(
          /ovf:id="6f0a2d8c-[^"]+"/,
          `ovf:id="6f0a2d8c-1b3e-4f5a-9c7d-${String(i).padStart(12, '0')}"`,
        );
        return [
          `${vmName(i)}.ova`,
          [{ name: `${vmName(i)}.ovf`, content: ovf }, disk(`${vmName(i)}-disk001.vmdk`)],
        ];
      }),
    );
    await writeCatalogFiles(shareOf(catalogRoot, server), files, Date.now() - 60_000);
  }
}

const shareOf = (root: string, server: string) => join(root, server, 'exports/ova');

/** A running controller and where it serves `/metrics` and `/healthz`. */
export type ControllerProcess = AppProcess & { readonly endpoints: AppEndpoints };

/**
 * Starts the controller (its deploy/ ServiceAccount) on `cluster`, with leader election
 * unless `leaderElect` is false (one replica), serving `/metrics` and `/healthz` on free
 * loopback ports.
 */
export async function startController(
  world: MigrationWorld,
  cluster: AppCluster,
  options: { leaderElect?: boolean } = {},
): Promise<ControllerProcess> {
  const endpoints = await freeEndpoints();
  const started = await startApp(app, {
    cluster,
    args: [
      ...(options.leaderElect === false
        ? []
        : ['--leader-elect', '--leader-election-namespace=ctrlkit-migration']),
      `--metrics-addr=${endpoints.metrics}`,
      `--healthz-addr=${endpoints.healthz}`,
      `--max-vm-inflight=${MAX_VM_INFLIGHT}`,
      `--ova-catalog-path=${world.catalogRoot}`,
    ],
  });
  return Object.assign(started, { endpoints });
}

/** A plan of every VM on `server`'s share, in a namespace of its own. */
export interface MigrationCase {
  namespace: string;
  target: string;
  readPlan(): Promise<Plan>;
  /** Creates the Migration that runs the plan, once the plan is Ready. */
  start(): Promise<void>;
  /** VMs whose migration has started (the plan's status lists them with a `started`). */
  startedVMs(): Promise<number>;
  /** VMs whose migration has started and not completed: the work in flight now. */
  vmsInFlight(): Promise<number>;
  /** Merge-patches labels onto the Plan and the Migration (the second writer of the 409 case). */
  relabel(value: string): Promise<void>;
}

/** Creates the namespaces, Providers, maps and the Plan of `server`'s 20 VMs. */
export async function planCase(
  world: MigrationWorld,
  prefix: string,
  server: string,
): Promise<MigrationCase> {
  const { kubeConfig } = world.plane;
  const client = createClient(kubeConfig);
  const namespace = await createTestNamespace(kubeConfig, `${prefix}-`);
  const target = await createTestNamespace(kubeConfig, `${prefix}-target-`);
  // A client of its own: the plan's reads do not wait behind the simulators' rate limit.
  const fixture = new PlanFixture({ client: createClient(kubeConfig), namespace });
  const vms = await new OvaInventory({
    catalogPath: shareOf(world.catalogRoot, server),
  }).listVMs();
  if (vms.length !== VM_COUNT) throw new Error(`${server}: ${vms.length} VMs, not ${VM_COUNT}`);
  await fixture.createProvidersAndMaps({
    sourceName: 'ova',
    source: { type: 'ova', url: `${server}:/exports/ova` },
    networks: [...new Set(vms.flatMap((v) => v.networks))],
    datastores: [...new Set(vms.flatMap((v) => v.disks.map((d) => d.datastore)))],
    storageClass: 'standard',
  });
  await fixture.createPlan('plan', {
    targetNamespace: target,
    vms: vms.map((vm) => ({ id: vm.id })),
  });
  const readPlan = () => fixture.read<Plan>('Plan', 'plan');
  return {
    namespace,
    target,
    readPlan,
    async start() {
      await waitFor('the plan Ready', async () => trueTypes(await readPlan()).includes('Ready'), {
        timeoutMs: 60_000,
      });
      await fixture.create('Migration', 'run-1', { plan: { name: 'plan' } });
    },
    async startedVMs() {
      const plan = await readPlan().catch(() => undefined);
      return (plan?.status?.migration?.vms ?? []).filter((vm) => vm.started !== undefined).length;
    },
    async vmsInFlight() {
      const plan = await readPlan().catch(() => undefined);
      return (plan?.status?.migration?.vms ?? []).filter(
        (vm) => vm.started !== undefined && vm.completed === undefined,
      ).length;
    },
    async relabel(value) {
      for (const [kind, name] of [
        ['Plan', 'plan'],
        ['Migration', 'run-1'],
      ] as const) {
        const { group, version, plural } = fixture.path(kind);
        await client
          .patch(
            `${group}/${version}/${plural}`,
            name,
            { metadata: { labels: { writer: value } } },
            {
              namespace,
            },
          )
          .catch(() => undefined);
      }
    },
  };
}

const trueTypes = (o: { status?: { conditions?: Array<{ type: string; status: string }> } }) =>
  (o.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type);

/** VMs of `plan` whose migration Succeeded. */
const succeededVMs = (plan: Plan | undefined) =>
  (plan?.status?.migration?.vms ?? []).filter((vm) =>
    (vm.conditions ?? []).some((c) => c.type === 'Succeeded' && c.status === 'True'),
  ).length;

/** What {@link measurePlan} needs besides the world and the case. */
export interface MeasureOptions {
  fault: string;
  /** The app running at the end (its memory and health are measured; others may have run before). */
  app: ControllerProcess;
  username: string;
  mark: number;
  rssBeforeMb: number;
  faultStartedAt: number;
  faultEndedAt: number;
  timeoutMs?: number;
  /** VMs under way when the fault hit (restart, SIGTERM). */
  inFlightAtFault?: number;
  /** `/healthz` and the informers polled from the fault's start; stopped when the plan is done. */
  health?: ReturnType<typeof pollHealth>;
  /** What else the case counts, from the app's requests (its 429s, its expired watches). */
  annotate?: (
    requests: AuditEvent[],
  ) => Pick<FaultResult, 'expired' | 'throttled' | 'retryAfterMarginMs'>;
}

/**
 * Waits for the plan to Succeed, then records the case: VMs Succeeded of {@link VM_COUNT},
 * duplicates (a VirtualMachine, DataVolume or conversion pod created twice for one VM), the
 * time to converge, the request rates, 409s and memory.
 */
export async function measurePlan(
  world: MigrationWorld,
  c: MigrationCase,
  o: MeasureOptions,
): Promise<FaultResult> {
  let plan: Plan | undefined;
  await waitFor(
    'the plan Succeeded',
    async () => {
      plan = await c.readPlan().catch(() => plan);
      return plan !== undefined && trueTypes(plan).includes('Succeeded');
    },
    { timeoutMs: o.timeoutMs ?? 180_000, intervalMs: 250 },
  ).catch(() => {
    const vms = (plan?.status?.migration?.vms ?? []).filter((vm) => vm.completed === undefined);
    console.log(
      `${o.fault}: not Succeeded; unfinished: ${JSON.stringify(vms.map((vm) => [vm.name, vm.phase, vm.error]))}`,
    );
  });
  const convergedAt = Date.now();
  const samples = await o.health?.stop();
  await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
  const after = await healthyAfter(o.app.endpoints);
  expect(healthy(after), `after ${o.fault}: ${describeSample(after)}`).toBe(true);
  const requests = await requestsSince(world.plane, o.username, o.mark);
  let duplicates = 0;
  for (const kind of DESTINATION_KINDS) {
    for (const [key, uids] of world.seen[kind]) {
      if (key.startsWith(`${c.target}/`)) duplicates += uids.size - 1;
    }
  }
  const result: FaultResult = {
    app: 'migration-controller',
    fault: o.fault,
    queued: VM_COUNT,
    reconciled: succeededVMs(plan),
    duplicates,
    convergeMs: convergedAt - o.faultEndedAt,
    ...requestFigures(requests, o.faultStartedAt, convergedAt),
    ...(o.inFlightAtFault !== undefined && { inFlightAtFault: o.inFlightAtFault }),
    ...(samples !== undefined && healthFigures(samples)),
    rssBeforeMb: o.rssBeforeMb,
    rssAfterMb: await rssMb(o.app),
    ...o.annotate?.(requests),
  };
  await recordResult(result);
  return result;
}

/** How long after its restart the apiserver may still refuse requests its RBAC allows. */
export const RBAC_SYNC_MS = 10_000;

/** Starts the plan's Migration, and waits until `n` VMs are under way (the fault lands mid-run). */
export async function runUntilStarted(c: MigrationCase, n: number): Promise<void> {
  await c.start();
  await waitFor(`${n} VMs started`, () => c.startedVMs(), {
    until: (started) => started >= n,
    timeoutMs: 60_000,
    intervalMs: 100,
  });
}

/** Stops `app`; a refusal (403) is accepted only before `untilMs` (a restarted apiserver's RBAC syncing). */
export async function stopController(app: AppProcess, untilMs = 0): Promise<void> {
  const code = await app.stop().catch((error: unknown) => {
    if (untilMs === 0 || !/refused \d+ request/.test(String(error))) throw error;
    return 0;
  });
  expect(code, app.logs.slice(-5).join('\n')).toBe(0);
}

/** Every VM migrated once (0 lost, 0 duplicates), and memory that came back. */
export function expectAllMigrated(result: FaultResult): void {
  expect(result.reconciled).toBe(VM_COUNT);
  expect(result.duplicates).toBe(0);
  expectBoundedMemory(result);
}
