//! Where the recorder writes Events: an interface, and the core/v1 implementation on the runtime's client.

import { type Client, type ClientSource, toClient, type Wire } from '@ctrlkit/client';
import type { CoreV1Event } from '@kubernetes/client-node';

/** The writes an event recorder makes (client-go's `EventSink`). */
export interface EventSink {
  /** Creates `event` in its namespace and returns what the server stored. */
  create(event: CoreV1Event): Promise<CoreV1Event | Wire<CoreV1Event>>;
  /** Applies a JSON merge patch to the existing Event named like `event`; returns the result. */
  patch(event: CoreV1Event, patch: object): Promise<CoreV1Event | Wire<CoreV1Event>>;
}

const EVENTS = 'v1/events';

/**
 * An {@link EventSink} writing core/v1 Events through the runtime's client (its times, whole
 * seconds, written as RFC 3339).
 */
export class CoreV1EventSink implements EventSink {
  readonly #client: Client;

  /** `client`: the runtime's `Client` (`manager.client`), or a kubeconfig for its default client. */
  constructor(client: ClientSource) {
    this.#client = toClient(client);
  }

  create(event: CoreV1Event): Promise<Wire<CoreV1Event>> {
    return this.#client.create(EVENTS, event, {
      namespace: event.metadata.namespace ?? 'default',
    }) as Promise<Wire<CoreV1Event>>;
  }

  patch(event: CoreV1Event, patch: object): Promise<Wire<CoreV1Event>> {
    return this.#client.patch<CoreV1Event>(EVENTS, event.metadata.name ?? '', patch, {
      namespace: event.metadata.namespace ?? 'default',
    });
  }
}
