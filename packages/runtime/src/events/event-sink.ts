//! Where the recorder writes Events: an interface, and the core/v1 implementation on client-node.

import {
  CoreV1Api,
  type CoreV1Event,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';

/** The writes an event recorder makes (client-go's `EventSink`). */
export interface EventSink {
  /** Creates `event` in its namespace and returns what the server stored. */
  create(event: CoreV1Event): Promise<CoreV1Event>;
  /** Applies a JSON merge patch to the existing Event named like `event`; returns the result. */
  patch(event: CoreV1Event, patch: object): Promise<CoreV1Event>;
}

/** An {@link EventSink} writing core/v1 Events through client-node's `CoreV1Api`. */
export class CoreV1EventSink implements EventSink {
  readonly #api: CoreV1Api;

  constructor(kubeConfigOrApi: KubeConfig | CoreV1Api) {
    this.#api =
      kubeConfigOrApi instanceof CoreV1Api
        ? kubeConfigOrApi
        : kubeConfigOrApi.makeApiClient(CoreV1Api);
  }

  create(event: CoreV1Event): Promise<CoreV1Event> {
    return this.#api.createNamespacedEvent({
      namespace: event.metadata.namespace ?? 'default',
      body: event,
    });
  }

  patch(event: CoreV1Event, patch: object): Promise<CoreV1Event> {
    return this.#api.patchNamespacedEvent(
      {
        name: event.metadata.name ?? '',
        namespace: event.metadata.namespace ?? 'default',
        body: patch,
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }
}
