//! A SIMULATOR of a kubelet and the Job controller: Pods run and complete, Jobs succeed or fail, as scripted.

import { type Clock, realClock } from '@ctrlkit/core';
import { patchStatus } from '@ctrlkit/runtime';
import type { KubeConfig, V1Job, V1Pod } from '@kubernetes/client-node';
import { SimulatorLoop, type SimulatorOptions, type StepOutcome } from './simulator-loop.js';

/** Options of {@link PodJobSimulator}. */
export interface PodJobSimulatorOptions extends SimulatorOptions {
  /** A message fails the Pod (phase `Failed`); undefined lets it succeed. Default: none fail. */
  podFails?: (pod: V1Pod) => string | undefined;
  /** True keeps a `Running` Pod running (a long conversion), asked again every `stepMs`. Default: none held. */
  podHeld?: (pod: V1Pod) => boolean;
  /** A message fails the Job (condition `Failed`); undefined lets it complete. Default: none fail. */
  jobFails?: (job: V1Job) => string | undefined;
  /**
   * Whether to stand in for the Job controller too. Default `true`; `false` on a control plane
   * with kube-controller-manager, whose Job controller then completes a Job from the pods
   * this simulator runs (`jobFails` is ignored).
   */
  jobs?: boolean;
}

/**
 * Stands in for the kubelet and the Job controller, which envtest does not run. A Pod goes
 * `Pending` → `Running` → `Succeeded` (or `Failed` with the scripted message; or kept
 * `Running` while `podHeld`); a Job gets
 * `startTime` and one active pod, then either `succeeded: 1` and conditions
 * `SuccessCriteriaMet`/`Complete`, or `failed: backoffLimit + 1` and conditions
 * `FailureTarget`/`Failed` (reason `BackoffLimitExceeded`, the scripted message). One step
 * per `stepMs`.
 */
export class PodJobSimulator {
  readonly #pods: SimulatorLoop<V1Pod>;
  readonly #jobs: SimulatorLoop<V1Job> | undefined;
  readonly #kubeConfig: KubeConfig;
  readonly #o: PodJobSimulatorOptions;
  readonly #clock: Clock;

  constructor(options: PodJobSimulatorOptions) {
    this.#o = options;
    this.#kubeConfig = options.kubeConfig;
    this.#clock = options.clock ?? realClock;
    this.#pods = new SimulatorLoop('pod-simulator', options, 'pods', (p) => this.#pod(p));
    this.#jobs =
      options.jobs === false
        ? undefined
        : new SimulatorLoop('job-simulator', options, 'batch/v1/jobs', (j) => this.#job(j));
  }

  /** Runs until `signal` fires. */
  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.#pods.run(signal), this.#jobs?.run(signal)]);
  }

  async #pod(pod: V1Pod): Promise<StepOutcome> {
    const body = { ...pod, apiVersion: 'v1', kind: 'Pod' };
    const now = new Date(this.#clock.now()).toISOString();
    switch (pod.status?.phase ?? 'Pending') {
      case 'Pending':
        await patchStatus(this.#kubeConfig, body, { phase: 'Running', startTime: now });
        return 'stepped';
      case 'Running': {
        if (this.#o.podHeld?.(pod)) return 'stepped';
        const message = this.#o.podFails?.(pod);
        await patchStatus(
          this.#kubeConfig,
          body,
          message === undefined
            ? { phase: 'Succeeded' }
            : { phase: 'Failed', reason: 'Error', message },
        );
        return 'stepped';
      }
      default:
        return 'wait';
    }
  }

  async #job(job: V1Job): Promise<StepOutcome> {
    const body = { ...job, apiVersion: 'batch/v1', kind: 'Job' };
    const status = job.status ?? {};
    const now = new Date(this.#clock.now()).toISOString();
    if ((status.conditions ?? []).some((c) => c.type === 'Complete' || c.type === 'Failed')) {
      return 'wait';
    }
    if (status.startTime === undefined) {
      await patchStatus(this.#kubeConfig, body, { startTime: now, active: 1 });
      return 'stepped';
    }
    const message = this.#o.jobFails?.(job);
    const condition = (type: string, reason: string, msg: string) => ({
      type,
      status: 'True',
      reason,
      message: msg,
      lastProbeTime: now,
      lastTransitionTime: now,
    });
    await patchStatus(
      this.#kubeConfig,
      body,
      message === undefined
        ? {
            active: 0,
            ready: 0,
            terminating: 0,
            succeeded: 1,
            completionTime: now,
            conditions: [
              condition(
                'SuccessCriteriaMet',
                'CompletionsReached',
                'Reached expected number of succeeded pods',
              ),
              condition(
                'Complete',
                'CompletionsReached',
                'Reached expected number of succeeded pods',
              ),
            ],
          }
        : {
            active: 0,
            ready: 0,
            terminating: 0,
            failed: (job.spec?.backoffLimit ?? 6) + 1,
            conditions: [
              condition('FailureTarget', 'BackoffLimitExceeded', message),
              condition('Failed', 'BackoffLimitExceeded', message),
            ],
          },
    );
    return 'stepped';
  }
}
