//! Informers made outside the Manager's factory, tracked in its informer health and metrics.

import { InvalidArgumentError } from '@ctrlkit/core';
import type { ReflectorHealth } from '../informers/reflector.js';

/** An informer whose watch health can be reported: a `SharedIndexInformer` is one. */
export interface TrackedInformer {
  /** The informer's name, unique among the tracked ones (the label of `ctrlkit_informer_*`). */
  readonly name: string;
  /** Its reflector's health now. */
  health(): ReflectorHealth;
}

/**
 * Takes an informer that a library made itself (not through `manager.informerFactory`) into
 * the informer health of a Manager: `ctrlkit_informer_*` and the `/healthz` check
 * `informers`. The returned function stops tracking it (call it once the informer stopped).
 */
export interface InformerTracker {
  /** Tracks `informer` until the returned function is called; throws on a name already tracked. */
  trackInformer(informer: TrackedInformer): () => void;
}

/** @internal The Manager's tracked informers, by name. */
export class TrackedInformers implements InformerTracker {
  readonly #byName = new Map<string, TrackedInformer>();

  /** See {@link InformerTracker.trackInformer}. */
  trackInformer(informer: TrackedInformer): () => void {
    if (typeof informer?.name !== 'string' || typeof informer.health !== 'function') {
      throw new InvalidArgumentError('informer', 'must have a name and a health() method');
    }
    if (this.#byName.has(informer.name)) {
      throw new InvalidArgumentError('informer', `an informer named ${informer.name} is tracked`);
    }
    this.#byName.set(informer.name, informer);
    return () => {
      if (this.#byName.get(informer.name) === informer) this.#byName.delete(informer.name);
    };
  }

  /** Adds the health of every tracked informer to `health` (the factory's), and returns it. */
  addHealthTo(health: Map<string, ReflectorHealth>): Map<string, ReflectorHealth> {
    for (const [name, informer] of this.#byName) health.set(name, informer.health());
    return health;
  }
}
