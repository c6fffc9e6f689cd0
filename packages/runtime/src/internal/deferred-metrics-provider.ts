//! A workqueue metrics provider whose target can be chosen after the queue was made.

import type { MetricsProvider } from '@ctrlkit/workqueue';

type Kind = keyof MetricsProvider;
type AnyMetric = {
  inc?(): void;
  dec?(): void;
  set?(value: number): void;
  observe?(value: number): void;
};

/**
 * Forwards every metric a queue asks for to the current target provider; {@link bind}
 * switches the target, re-creating the metrics there. Lets a `Controller` made before a
 * `Manager` exists report its queue metrics to the manager's registry once added.
 */
export class DeferredMetricsProvider implements MetricsProvider {
  #target: MetricsProvider;
  readonly #made: Array<{ kind: Kind; name: string; metric: AnyMetric }> = [];

  constructor(initial: MetricsProvider) {
    this.#target = initial;
  }

  /** Sends every metric made so far, and every later one, to `target`. */
  bind(target: MetricsProvider): void {
    this.#target = target;
    for (const entry of this.#made) entry.metric = target[entry.kind](entry.name) as AnyMetric;
  }

  #make(kind: Kind, name: string) {
    const entry = { kind, name, metric: this.#target[kind](name) as AnyMetric };
    this.#made.push(entry);
    return {
      inc: () => entry.metric.inc?.(),
      dec: () => entry.metric.dec?.(),
      set: (value: number) => entry.metric.set?.(value),
      observe: (value: number) => entry.metric.observe?.(value),
    };
  }

  newDepthMetric(name: string) {
    return this.#make('newDepthMetric', name);
  }
  newAddsMetric(name: string) {
    return this.#make('newAddsMetric', name);
  }
  newLatencyMetric(name: string) {
    return this.#make('newLatencyMetric', name);
  }
  newWorkDurationMetric(name: string) {
    return this.#make('newWorkDurationMetric', name);
  }
  newUnfinishedWorkSecondsMetric(name: string) {
    return this.#make('newUnfinishedWorkSecondsMetric', name);
  }
  newLongestRunningProcessorSecondsMetric(name: string) {
    return this.#make('newLongestRunningProcessorSecondsMetric', name);
  }
  newRetriesMetric(name: string) {
    return this.#make('newRetriesMetric', name);
  }
}
