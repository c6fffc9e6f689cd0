//! A hook runner whose outcomes a test scripts per VM and step.

import type { HookResult, HookRunner } from '../adapter.js';
import type { HookRef, Plan, VMStatus } from '../api/plan.js';

/** Reports each VM's hook as scripted: `passes` runs pending, then done (failed with `failed`). */
export class ScriptedHookRunner implements HookRunner {
  readonly #script = new Map<string, { passes: number; failed?: string }>();
  /** Runs seen, as `vmID/step`. */
  readonly runs: string[] = [];

  /** Scripts the hook of `vmID` at `step`. */
  script(vmID: string, step: string, outcome: { passes?: number; failed?: string }): this {
    this.#script.set(`${vmID}/${step}`, {
      passes: outcome.passes ?? 0,
      ...(outcome.failed !== undefined && { failed: outcome.failed }),
    });
    return this;
  }

  async run(_plan: Plan, vm: VMStatus, hook: HookRef): Promise<HookResult> {
    const key = `${vm.id}/${hook.step}`;
    this.runs.push(key);
    const s = this.#script.get(key) ?? { passes: 0 };
    if (s.passes > 0) {
      s.passes--;
      this.#script.set(key, s);
      return { done: false };
    }
    return s.failed === undefined ? { done: true } : { done: true, failed: s.failed };
  }
}
