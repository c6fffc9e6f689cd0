//! Informer health on a prom-client registry: the age of each informer's last event and its watch state.

import type { Clock } from '@ctrlkit/core';
import { Gauge, type Registry } from 'prom-client';
import type { ReflectorHealth, WatchState } from '../informers/reflector.js';

const STATES: readonly WatchState[] = ['listing', 'watching', 'backing-off'];

/**
 * Three gauges read from `health()` at each scrape, per informer (its name, e.g.
 * `v1/pods in ns`):
 * - `ctrlkit_informer_last_event_age_seconds{informer}`: seconds since the last event,
 *   bookmark or list arrived (absent before the first);
 * - `ctrlkit_informer_watch_state{informer,state}`: 1 for the current state (`listing`,
 *   `watching`, `backing-off`), 0 for the others;
 * - `ctrlkit_informer_unwatched_seconds{informer}`: seconds without a watch the server
 *   accepted (0 while one is open).
 */
export class PrometheusInformerMetrics {
  constructor(registry: Registry, health: () => Map<string, ReflectorHealth>, clock: Clock) {
    const seconds = (since: number) => Math.max(0, clock.now() - since) / 1000;
    new Gauge({
      name: 'ctrlkit_informer_last_event_age_seconds',
      help: 'Seconds since the informer last received an event, a bookmark or a list.',
      labelNames: ['informer'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [informer, h] of health()) {
          if (h.lastEventAtMs !== undefined) this.labels(informer).set(seconds(h.lastEventAtMs));
        }
      },
    });
    new Gauge({
      name: 'ctrlkit_informer_watch_state',
      help: 'The state of the informer: 1 for the current one of listing, watching, backing-off.',
      labelNames: ['informer', 'state'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [informer, h] of health()) {
          for (const state of STATES) this.labels(informer, state).set(h.state === state ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'ctrlkit_informer_unwatched_seconds',
      help: 'Seconds the informer has been without a watch the server accepted (0 while watching).',
      labelNames: ['informer'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [informer, h] of health()) {
          this.labels(informer).set(
            h.unwatchedSinceMs === undefined ? 0 : seconds(h.unwatchedSinceMs),
          );
        }
      },
    });
  }
}
