//! The run strategy of a migrated VM (Forklift's `determineRunStrategy`).

import type { TargetPowerState, VMStatus } from '../api/plan.js';
import type { RunStrategy } from './crds.js';

/**
 * `Always` when the target power state (the VM's, else the plan's) is `on`, `Halted` when
 * `off`; otherwise (`auto` or unset) the source's: `Always` if it was on, else `Halted`.
 */
export function determineRunStrategy(
  vm: Pick<VMStatus, 'targetPowerState' | 'restorePowerState'>,
  planTargetPowerState?: TargetPowerState,
): RunStrategy {
  switch (vm.targetPowerState || planTargetPowerState) {
    case 'on':
      return 'Always';
    case 'off':
      return 'Halted';
    default:
      return vm.restorePowerState === 'On' ? 'Always' : 'Halted';
  }
}
