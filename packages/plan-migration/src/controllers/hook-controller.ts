//! The Hook controller: validates image and playbook, writes the Ready condition (Forklift's hook controller).

import { splitMetaNamespaceKey } from '@ctrlkit/runtime/informers';
import type { Hook } from '../api/hook.js';
import { validateHook } from './hook-validation.js';
import { ResourceController } from './internal/resource-controller.js';
import type { ResourceControllerOptions } from './resource-controller-options.js';

/** Options of {@link HookController}. */
export type HookControllerOptions = ResourceControllerOptions;

/** Reconciles Hooks: {@link validateHook}, then `status.conditions` and `observedGeneration`. */
export class HookController extends ResourceController {
  constructor(options: HookControllerOptions) {
    super('Hook', 'hook', options);
  }

  protected async reconcile(key: string): Promise<undefined> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    await this.writer.reconcile<Hook>(namespace, name, (hook, cnd) => {
      cnd.setCondition(...validateHook(hook));
    });
    return undefined;
  }
}
