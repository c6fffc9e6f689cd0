//! Runs a VM's PreHook/PostHook as a Job with the hook's image and playbook (Forklift's plan/hook.go).

import { InvalidArgumentError } from '@ctrlkit/core';
import { type Client, type KubeConfigLike, toClient, type Wire } from '@ctrlkit/runtime/client';
import type { V1ConfigMap, V1Job } from '@kubernetes/client-node';
import type { HookContext, HookResult, HookRunner } from '../adapter.js';
import type { Hook } from '../api/hook.js';
import type { HookRef, Plan, VMStatus } from '../api/plan.js';
import { API_VERSION, GROUP, PLURALS, VERSION } from '../crds.js';
import {
  type BatchApi,
  batchApi,
  type CoreApi,
  type CustomApi,
  coreApi,
  customApi,
  unlessNotFound,
} from '../internal/kube-api.js';
import { LABEL_MIGRATION, LABEL_PLAN, LABEL_VM_ID, labelSelector } from '../labels.js';
import { activeSnapshot } from '../migration-runner.js';
import { DEFAULT_HOOK_RETRY } from '../settings.js';
import { forkliftPlanSpec, forkliftWorkload } from './hook-workload.js';
import { LABEL_HOOK, LABEL_KUBEVIRT_RESOURCE, LABEL_STEP, RESOURCE_HOOK_CONFIG } from './labels.js';

/** Where the hook's ConfigMap is mounted in the Job's pod. */
export const HOOK_MOUNT_PATH = '/tmp/hook';
/** The message of a hook step whose Job failed more than `hookRetry` times, as upstream. */
export const HOOK_RETRY_LIMIT_EXCEEDED = 'Retry limit exceeded.';

/** Options of {@link JobHookRunner}. */
export interface JobHookRunnerOptions {
  /** The cluster the plans live in: the runtime's one client (`manager.client`). Required unless `kubeConfig` is given. */
  client?: Client;
  /** Instead of `client`, for convenience: this kubeconfig's default client. */
  kubeConfig?: KubeConfigLike;
  /** Job failures tolerated before the step fails. Default {@link DEFAULT_HOOK_RETRY}. */
  hookRetry?: number;
  /**
   * The VM's workload, written to `workload.yml`. Default: the VM as the source's inventory
   * describes it, in Forklift's shape (its inventory Workload, as yaml.v2 writes it).
   */
  workload?: (plan: Plan, vm: VMStatus) => Promise<unknown>;
}

/**
 * A {@link HookRunner} that runs each hook as a Job in the plan's namespace: its ConfigMap
 * holds `workload.yml` (the VM from the source's inventory), `plan.yml` (the Plan's spec),
 * both as Forklift writes them, and the decoded `playbook.yml`, mounted at
 * {@link HOOK_MOUNT_PATH}; the Job runs the hook's image (with `ansible-runner` on the
 * playbook when there is one), its service account and deadline. Job and ConfigMap carry the
 * labels `plan`, `migration`, `vmID`, `step`, `hook` and `resource=hook-config`, and are found
 * by them on the next pass. Done when the Job succeeded; failed with the Job's `Failed`
 * condition message, or {@link HOOK_RETRY_LIMIT_EXCEEDED} after more than `hookRetry` failures.
 */
export class JobHookRunner implements HookRunner {
  readonly #o: JobHookRunnerOptions;
  readonly #core: CoreApi;
  readonly #batch: BatchApi;
  readonly #custom: CustomApi;
  readonly #retry: number;

  constructor(options: JobHookRunnerOptions) {
    const source = options?.client ?? options?.kubeConfig;
    if (source === undefined)
      throw new InvalidArgumentError('client', 'is required (the runtime client, or kubeConfig)');
    const client = toClient(source);
    const retry = options.hookRetry;
    if (retry !== undefined && (!Number.isInteger(retry) || retry < 0)) {
      throw new InvalidArgumentError('hookRetry', `must be an integer >= 0, got ${retry}`);
    }
    this.#o = options;
    this.#core = coreApi(client);
    this.#batch = batchApi(client);
    this.#custom = customApi(client);
    this.#retry = options.hookRetry ?? DEFAULT_HOOK_RETRY;
  }

  async run(plan: Plan, vm: VMStatus, ref: HookRef, context?: HookContext): Promise<HookResult> {
    const hook = await this.#hook(plan, ref);
    if (hook === undefined) return { done: true, failed: 'Hook not found.' };
    const job = await this.#ensureJob(plan, vm, hook, context);
    const failed = (job.status?.conditions ?? []).find(
      (c) => c.type === 'Failed' && c.status === 'True',
    );
    if (failed !== undefined) return { done: true, failed: failed.message || 'Hook job failed.' };
    if ((job.status?.failed ?? 0) > this.#retry) {
      return { done: true, failed: HOOK_RETRY_LIMIT_EXCEEDED };
    }
    if ((job.status?.succeeded ?? 0) > 0) return { done: true };
    return { done: false };
  }

  #hook(plan: Plan, ref: HookRef): Promise<Hook | undefined> {
    const hook = this.#custom.getNamespacedCustomObject({
      // The Hook is in the Plan's API group (forklift.ctrlkit.dev or forklift.konveyor.io).
      group: groupOf(plan),
      version: VERSION,
      plural: PLURALS.Hook,
      namespace: ref.hook.namespace || plan.metadata.namespace || '',
      name: ref.hook.name ?? '',
    });
    return unlessNotFound(hook as Promise<Hook>);
  }

  #labels(plan: Plan, vm: VMStatus, hook: Hook): Record<string, string> {
    return {
      [LABEL_PLAN]: plan.metadata.uid ?? '',
      [LABEL_MIGRATION]: activeSnapshot(plan)?.migration.uid ?? '',
      [LABEL_VM_ID]: vm.id ?? '',
      [LABEL_STEP]: vm.phase,
      [LABEL_HOOK]: hook.metadata.uid ?? '',
      [LABEL_KUBEVIRT_RESOURCE]: RESOURCE_HOOK_CONFIG,
    };
  }

  async #ensureJob(
    plan: Plan,
    vm: VMStatus,
    hook: Hook,
    context: HookContext | undefined,
  ): Promise<Wire<V1Job>> {
    const namespace = plan.metadata.namespace ?? '';
    const labels = this.#labels(plan, vm, hook);
    const selector = labelSelector(labels);
    const generateName = `${plan.metadata.name}-${vm.id}-${vm.phase}-`.toLowerCase();
    const maps = await this.#core.listNamespacedConfigMap({ namespace, labelSelector: selector });
    const configMap =
      maps.items[0] ??
      (await this.#core.createNamespacedConfigMap({
        namespace,
        body: await this.#configMap(plan, vm, hook, labels, generateName, context),
      }));
    const jobs = await this.#batch.listNamespacedJob({ namespace, labelSelector: selector });
    const found = jobs.items[0];
    if (found !== undefined) return found;
    const job = await this.#batch.createNamespacedJob({
      namespace,
      body: this.#job(plan, hook, labels, generateName, configMap.metadata?.name ?? ''),
    });
    // The ConfigMap goes with its Job.
    await this.#core.patchNamespacedConfigMap({
      namespace,
      name: configMap.metadata?.name ?? '',
      body: [
        {
          op: 'add',
          path: '/metadata/ownerReferences',
          value: [
            {
              apiVersion: 'batch/v1',
              kind: 'Job',
              name: job.metadata?.name ?? '',
              uid: job.metadata?.uid ?? '',
            },
          ],
        },
      ],
    });
    return job;
  }

  async #configMap(
    plan: Plan,
    vm: VMStatus,
    hook: Hook,
    labels: Record<string, string>,
    generateName: string,
    context: HookContext | undefined,
  ): Promise<Wire<V1ConfigMap>> {
    const workload = this.#o.workload
      ? await this.#o.workload(plan, vm)
      : await inventoryWorkload(plan, vm, context);
    return {
      metadata: { generateName, namespace: plan.metadata.namespace ?? '', labels },
      data: {
        // JSON is YAML: ansible reads these as YAML.
        'workload.yml': JSON.stringify(workload, null, 2),
        'playbook.yml': hook.spec.playbook
          ? Buffer.from(hook.spec.playbook, 'base64').toString('utf8')
          : '',
        'plan.yml': JSON.stringify(forkliftPlanSpec(plan.spec), null, 2),
      },
    };
  }

  #job(
    plan: Plan,
    hook: Hook,
    labels: Record<string, string>,
    generateName: string,
    configMap: string,
  ): Wire<V1Job> {
    const deadline = hook.spec.deadline ?? 0;
    return {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        generateName,
        namespace: plan.metadata.namespace ?? '',
        labels,
        ownerReferences: [
          {
            apiVersion: plan.apiVersion ?? API_VERSION,
            kind: 'Plan',
            name: plan.metadata.name ?? '',
            uid: plan.metadata.uid ?? '',
          },
        ],
      },
      spec: {
        backoffLimit: 1,
        template: {
          metadata: { labels },
          spec: {
            restartPolicy: 'Never',
            ...(deadline > 0 && { activeDeadlineSeconds: deadline }),
            ...(hook.spec.serviceAccount && { serviceAccountName: hook.spec.serviceAccount }),
            containers: [
              {
                name: 'hook',
                image: hook.spec.image,
                ...(hook.spec.playbook && {
                  command: [
                    '/bin/entrypoint',
                    'ansible-runner',
                    'run',
                    '/tmp/runner',
                    '-p',
                    `${HOOK_MOUNT_PATH}/playbook.yml`,
                  ],
                }),
                volumeMounts: [{ name: 'hook', mountPath: HOOK_MOUNT_PATH }],
              },
            ],
            volumes: [{ name: 'hook', configMap: { name: configMap } }],
          },
        },
      },
    };
  }
}

/** The API group of `plan`, from its `apiVersion` ({@link GROUP} when it has none). */
function groupOf(plan: Plan): string {
  return plan.apiVersion?.split('/')[0] || GROUP;
}

/**
 * The VM as the source's inventory describes it, in Forklift's shape; Forklift fails the hook
 * step when the inventory has no such VM, and so does this (the step retries). Without a
 * context (no inventory), the VM's id and name in that shape.
 */
async function inventoryWorkload(
  plan: Plan,
  vm: VMStatus,
  context: HookContext | undefined,
): Promise<Record<string, unknown>> {
  if (context === undefined) {
    // A caller that gives no inventory: the VM as the plan knows it, in the same shape.
    const known = { id: vm.id ?? '', name: vm.name ?? '', powerState: 'Off' as const };
    return forkliftWorkload({ ...known, disks: [], networks: [] }, '');
  }
  const found = await context.inventory.findVM({ id: vm.id, name: vm.name });
  if (found === undefined) {
    throw new Error(`hook workload: VM ${vm.id || vm.name} is not in the source's inventory`);
  }
  const providerUID = activeSnapshot(plan)?.provider?.source?.uid ?? '';
  const type = context.sourceType ?? '';
  return forkliftWorkload(found, `providers/${type}/${providerUID}/workloads/${found.id}`);
}
