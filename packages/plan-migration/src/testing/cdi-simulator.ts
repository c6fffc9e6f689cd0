//! A SIMULATOR of CDI: DataVolumes advance ImportScheduled → ImportInProgress → Succeeded and get a bound PVC of their name.

import { isConflict } from '@ctrlkit/core';
import { patchStatus } from '@ctrlkit/runtime';
import { toClient } from '@ctrlkit/runtime/client';
import type { KubeConfig, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { type CoreApi, coreApi } from '../internal/kube-api.js';
import { DATA_VOLUMES, type DataVolume } from '../kubevirt/crds.js';
import { SimulatorLoop, type SimulatorOptions, type StepOutcome } from './simulator-loop.js';

/** Progress an import makes per step unless told otherwise: 25 percentage points. */
export const DEFAULT_CDI_PROGRESS_PER_STEP = 25;

/** Options of {@link CdiSimulator}. */
export interface CdiSimulatorOptions extends SimulatorOptions {
  /** Percentage points an import advances per step, for all or per DataVolume. Default {@link DEFAULT_CDI_PROGRESS_PER_STEP}. */
  progressPerStep?: number | ((dv: DataVolume) => number);
  /** A message fails the DataVolume's import (phase `Failed`); undefined lets it succeed. Default: none fail. */
  fails?: (dv: DataVolume) => string | undefined;
}

const API_VERSION = `${DATA_VOLUMES.group}/${DATA_VOLUMES.version}`;

/**
 * Stands in for CDI on a cluster without it (envtest): for each DataVolume it creates a PVC
 * of the same name (the DataVolume's labels and annotations, owned by it) and marks it
 * Bound, then moves the DataVolume through `ImportScheduled`, `ImportInProgress` with
 * `progress` "NN.NN%" and `Succeeded` ("100.0%"), one step per `stepMs`. A blank source
 * succeeds right after scheduling. Every DataVolume it saw is kept in {@link seen}.
 */
export class CdiSimulator {
  readonly #loop: SimulatorLoop<DataVolume>;
  readonly #kubeConfig: KubeConfig;
  readonly #core: CoreApi;
  readonly #perStep: (dv: DataVolume) => number;
  readonly #fails: CdiSimulatorOptions['fails'];
  /** Every DataVolume seen, by `namespace/name`, as first seen. */
  readonly seen = new Map<string, DataVolume>();

  constructor(options: CdiSimulatorOptions) {
    this.#loop = new SimulatorLoop('cdi-simulator', options, DATA_VOLUMES, (dv) => this.#step(dv));
    this.#kubeConfig = options.kubeConfig;
    this.#core = coreApi(toClient(options.kubeConfig));
    const perStep = options.progressPerStep ?? DEFAULT_CDI_PROGRESS_PER_STEP;
    this.#perStep = typeof perStep === 'function' ? perStep : () => perStep;
    this.#fails = options.fails;
  }

  /** Runs until `signal` fires. */
  run(signal: AbortSignal): Promise<void> {
    return this.#loop.run(signal);
  }

  async #step(dv: DataVolume): Promise<StepOutcome> {
    const key = `${dv.metadata.namespace}/${dv.metadata.name}`;
    if (!this.seen.has(key)) this.seen.set(key, structuredClone(dv));
    const phase = dv.status?.phase ?? '';
    const blank = (dv.spec.source as { blank?: unknown } | undefined)?.blank !== undefined;
    switch (phase) {
      case '':
      case 'Pending':
        await this.#ensurePVC(dv);
        return this.#status(dv, {
          phase: 'ImportScheduled',
          progress: 'N/A',
          claimName: dv.metadata.name,
        });
      case 'ImportScheduled':
        return blank
          ? this.#status(dv, { phase: 'Succeeded', progress: '100.0%' })
          : this.#status(dv, { phase: 'ImportInProgress', progress: '0.00%' });
      case 'ImportInProgress': {
        const message = this.#fails?.(dv);
        if (message !== undefined) {
          return this.#status(dv, {
            phase: 'Failed',
            conditions: [{ type: 'Running', status: 'False', reason: 'Error', message }],
          });
        }
        const done = Number.parseFloat(dv.status?.progress ?? '0') + this.#perStep(dv);
        return done >= 100
          ? this.#status(dv, { phase: 'Succeeded', progress: '100.0%' })
          : this.#status(dv, { progress: `${done.toFixed(2)}%` });
      }
      default:
        return 'wait';
    }
  }

  async #status(dv: DataVolume, status: Record<string, unknown>): Promise<StepOutcome> {
    await patchStatus(
      this.#kubeConfig,
      { ...dv, apiVersion: API_VERSION, kind: 'DataVolume' },
      status,
    );
    return 'stepped';
  }

  async #ensurePVC(dv: DataVolume): Promise<void> {
    const namespace = dv.metadata.namespace ?? '';
    const name = dv.metadata.name ?? '';
    const storage =
      (dv.spec.storage as { resources?: { requests?: { storage?: string } } } | undefined)
        ?.resources?.requests?.storage ?? '1Gi';
    const body: V1PersistentVolumeClaim = {
      metadata: {
        name,
        namespace,
        labels: dv.metadata.labels ?? {},
        annotations: dv.metadata.annotations ?? {},
        ownerReferences: [
          {
            apiVersion: API_VERSION,
            kind: 'DataVolume',
            name,
            uid: dv.metadata.uid ?? '',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
    };
    try {
      await this.#core.createNamespacedPersistentVolumeClaim({ namespace, body });
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
    await this.#core.patchNamespacedPersistentVolumeClaimStatus({
      namespace,
      name,
      body: [{ op: 'replace', path: '/status', value: { phase: 'Bound' } }],
    });
  }
}
