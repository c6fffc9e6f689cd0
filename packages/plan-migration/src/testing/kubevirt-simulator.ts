//! A SIMULATOR of KubeVirt's VirtualMachine controller: status printableStatus/ready follow the run strategy.

import { patchStatus } from '@ctrlkit/runtime';
import type { KubeConfig } from '@kubernetes/client-node';
import { VIRTUAL_MACHINES, type VirtualMachine } from '../kubevirt/crds.js';
import { SimulatorLoop, type SimulatorOptions, type StepOutcome } from './simulator-loop.js';

const API_VERSION = `${VIRTUAL_MACHINES.group}/${VIRTUAL_MACHINES.version}`;
const RUNNING = new Set(['Always', 'RerunOnFailure', 'Once']);

/**
 * Stands in for KubeVirt on a cluster without it: a VirtualMachine whose run strategy is
 * `Always`, `RerunOnFailure` or `Once` (or `running: true`) becomes `Running` and ready;
 * any other becomes `Stopped` and not ready.
 */
export class KubeVirtSimulator {
  readonly #loop: SimulatorLoop<VirtualMachine>;
  readonly #kubeConfig: KubeConfig;

  constructor(options: SimulatorOptions) {
    this.#loop = new SimulatorLoop('kubevirt-simulator', options, VIRTUAL_MACHINES, (vm) =>
      this.#step(vm),
    );
    this.#kubeConfig = options.kubeConfig;
  }

  /** Runs until `signal` fires. */
  run(signal: AbortSignal): Promise<void> {
    return this.#loop.run(signal);
  }

  async #step(vm: VirtualMachine): Promise<StepOutcome> {
    const on = RUNNING.has(vm.spec.runStrategy ?? '') || vm.spec.running === true;
    const want = { printableStatus: on ? 'Running' : 'Stopped', ready: on, created: on };
    const s = vm.status;
    if (s?.printableStatus === want.printableStatus && s.ready === on && s.created === on) {
      return 'wait';
    }
    await patchStatus(
      this.#kubeConfig,
      { ...vm, apiVersion: API_VERSION, kind: 'VirtualMachine' },
      want,
    );
    return 'stepped';
  }
}
