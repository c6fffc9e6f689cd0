//! The Greeting controller: renders each Greeting into a ConfigMap it owns, with server-side apply.

import {
  apply,
  applyStatus,
  Controller,
  requestReconciler,
  SharedInformerFactory,
} from '@ctrlkit/runtime';
import {
  enqueueRequestForOwner,
  generationChangedPredicate,
  setControllerReference,
} from '@ctrlkit/runtime/controller';
import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
import { type Greeting, group, plural, version } from './greeting-crd.js';

/** The field manager of every write of this controller. */
export const fieldManager = 'greeting-controller';

/** Options of {@link startGreetingController}. */
export interface GreetingControllerOptions {
  kubeConfig: KubeConfig;
  /** Watch only this namespace. Default: all. */
  namespace?: string;
}

/** Runs the controller until `signal` fires; resolves when it has stopped. */
export function startGreetingController(
  options: GreetingControllerOptions,
  signal: AbortSignal,
): Promise<void> {
  const { kubeConfig } = options;
  const factory = new SharedInformerFactory(kubeConfig, {
    ...(options.namespace !== undefined && { namespace: options.namespace }),
  });
  const resource = { group, version, resource: plural };
  const greetings = factory.forResource<Greeting>(resource);
  const lister = factory.lister<Greeting>(resource);
  const configMaps = factory.forResource<V1ConfigMap>('v1/configmaps');

  const controller = new Controller({
    name: 'greeting',
    reconcile: requestReconciler(async ({ namespace, name }) => {
      const cached = lister.namespace(namespace).get(name);
      if (cached === undefined || cached.metadata.deletionTimestamp) return;
      const greeting = { ...cached, apiVersion: `${group}/${version}`, kind: 'Greeting' };
      // The intent: only the fields this controller owns. A key it stops sending is removed;
      // fields other managers set (a label added by hand) stay.
      const desired: V1ConfigMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `${name}-greeting`, namespace },
        data: {
          message: greeting.spec.message,
          ...(greeting.spec.signature !== undefined && { signature: greeting.spec.signature }),
        },
      };
      setControllerReference(greeting, desired);
      await apply(kubeConfig, desired, { fieldManager, force: true });
      await applyStatus(
        kubeConfig,
        {
          apiVersion: greeting.apiVersion,
          kind: greeting.kind,
          metadata: { name, namespace },
          status: {
            configMap: desired.metadata?.name,
            observedGeneration: greeting.metadata.generation,
          },
        },
        { fieldManager, force: true },
      );
    }),
  })
    // Status writes do not change the generation: skip them, react to spec changes.
    .watch<Greeting>(greetings, { predicates: [generationChangedPredicate()] })
    .watch(configMaps, { mapToKeys: enqueueRequestForOwner({ kind: 'Greeting', group }) });
  factory.start(signal);
  return controller.run(signal);
}
